import ArgumentParser
import Foundation

extension MockAPNsCommand {
    /// The exit status of a usage error (a bad flag or value): 2, as `mock-apns push` and `run` document.
    static let usageExitCode: Int32 = 2

    /// ArgumentParser's `main`, except that usage errors of `mock-apns push` exit with `usageExitCode` (scripts
    /// tell them from APNs' error answers, exit 1, and an unreachable endpoint, exit 3).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let arguments = CommandLine.arguments.dropFirst()
            if arguments.first == "push", exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(usageExitCode)
            }
            exit(withError: error)
        }
    }
}
