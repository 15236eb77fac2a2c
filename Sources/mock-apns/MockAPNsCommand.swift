import ArgumentParser
import MockAPNs

/// `mock-apns`: a mock of Apple's Push Notification service for testing providers.
@main
struct MockAPNsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mock-apns",
        abstract: "A mock of Apple's Push Notification service (APNs) for testing push providers.",
        discussion: """
            Point your provider at mock-apns instead of api.push.apple.com: it answers as APNs would \
            and records every request.
            """,
        version: MockAPNsVersion.current,
        subcommands: [
            Serve.self, Run.self, Verify.self, Push.self, Requests.self, Reset.self, ClockCommand.self,
            ChannelsCommand.self, ActivitiesCommand.self, PhonesCommand.self, PhoneCommand.self, Token.self,
            Check.self, Inspect.self,
        ],
        defaultSubcommand: nil
    )
}
