import ArgumentParser
import Foundation
import MockAPNs

/// `mock-apns channels create|list|read|delete`: manages an app's broadcast channels on the channel management
/// endpoint of the mock (by default) or any APNs endpoint, as a provider does (live-activities.md §3).
struct ChannelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channels",
        abstract: "Create, list, read or delete an app's broadcast channels (iOS 18) on the mock or any endpoint.",
        discussion: """
            Each operation is one HTTP/2 request to the channel management endpoint (/1/apps/<bundle>/channels, \
            the channel id in the apns-channel-id header), authenticated as `mock-apns push` is: the embedded test \
            key by default, --key/--key-id/--team-id, or a client certificate (--cert). The endpoint is \
            --channels-url, else $MOCK_APNS_CHANNELS_URL (mock-apns run sets it), else the running mock's (asked \
            at its control API, --control-url), else https://localhost:2195.

            Broadcast to a channel with `mock-apns push --channel ID`.

            Exit status: 0 when APNs answers as asked (201, 200, 204), 1 when it answers with an error (its status \
            and reason on standard error), 2 on a usage error, 3 when the endpoint cannot be reached.
            """,
        subcommands: [Create.self, List.self, Read.self, Delete.self])

    /// `channels create`: `POST /1/apps/<bundle>/channels`; prints the new channel's id.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a channel and print its id (201, apns-channel-id).")

        @Option(
            name: .long, parsing: .unconditional,
            help: """
                message-storage-policy: 0 (no message stored; broadcasts need apns-expiration 0) or 1 (the most \
                recent message kept up to 8 hours). Default: 0.
                """)
        var policy = 0

        @OptionGroup var options: ChannelOptions

        func validate() throws {
            guard BroadcastChannel.StoragePolicy(rawValue: policy) != nil else {
                throw ValidationError(
                    "--policy must be 0 (no message stored) or 1 (the most recent message stored), got \(policy)")
            }
        }

        func run() async throws {
            let body = #"{"message-storage-policy":\#(policy),"push-type":"\#(BroadcastChannel.pushType)"}"#
            let answer = try await options.send(
                "POST", "channels", body: body, expected: 201, command: "channels create")
            guard let id = answer.header("apns-channel-id") else {
                StandardStream.error.write("error: the endpoint answered 201 without an apns-channel-id header\n")
                throw ExitCode(1)
            }
            print(id)
        }
    }

    /// `channels list`: `GET /1/apps/<bundle>/all-channels`; prints the ids, one a line.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the app's channel ids, one a line.")

        @OptionGroup var options: ChannelOptions

        func run() async throws {
            let answer = try await options.send("GET", "all-channels", expected: 200, command: "channels list")
            guard case .array(let ids)? = answer.json?["channels"] else {
                StandardStream.error.write("error: the answer has no channels list: \(answer.bodyExcerpt)\n")
                throw ExitCode(1)
            }
            if ids.isEmpty { StandardStream.error.write("\(options.bundleID) has no channels\n") }
            for id in ids { print(id.stringValue ?? id.jsonText) }
        }
    }

    /// `channels read ID`: `GET /1/apps/<bundle>/channels` with `apns-channel-id`; prints the channel.
    struct Read: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a channel's storage policy and push type.")

        @Argument(help: "The channel id (base64).")
        var id: String

        @OptionGroup var options: ChannelOptions

        func validate() throws { try ChannelOptions.checkedID(id) }

        func run() async throws {
            let answer = try await options.send(
                "GET", "channels", headers: [("apns-channel-id", id)], expected: 200, command: "channels read")
            guard let json = answer.json, case .object(let members) = json else {
                StandardStream.error.write("error: the answer is not a JSON object: \(answer.bodyExcerpt)\n")
                throw ExitCode(1)
            }
            var lines = ["channel: \(id)", "app: \(options.bundleID)"]
            for (name, value) in members {
                var line = "\(name): \(value.stringValue ?? value.jsonText)"
                if name == "message-storage-policy", let number = Int(value.scalarText),
                    let policy = BroadcastChannel.StoragePolicy(rawValue: number)
                {
                    line += policy == .noStorage ? " (no message stored)" : " (the most recent message stored)"
                }
                lines.append(line)
            }
            print(lines.joined(separator: "\n"))
        }
    }

    /// `channels delete ID`: `DELETE /1/apps/<bundle>/channels` with `apns-channel-id`.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a channel (204); APNs never reuses its id.")

        @Argument(help: "The channel id (base64).")
        var id: String

        @OptionGroup var options: ChannelOptions

        func validate() throws { try ChannelOptions.checkedID(id) }

        func run() async throws {
            _ = try await options.send(
                "DELETE", "channels", headers: [("apns-channel-id", id)], expected: 204, command: "channels delete")
            print("deleted channel \(id) of \(options.bundleID)")
        }
    }
}
