import ArgumentParser
import Foundation

extension MockAPNsCommand {
    /// The exit status of a usage error (a bad flag or value): 2, as `mock-apns push`, `run` and `verify` document.
    static let usageExitCode: Int32 = 2

    /// The commands whose usage errors exit with `usageExitCode`: their exit statuses 1 and 3 mean something else
    /// (APNs' error answers and an unreachable endpoint for `push`; a failed check and a failed COMMAND for `run`);
    /// commands added since (`activities`, `inspect`, `phones`, `phone`, `channels`) follow them.
    static let usageErrorsExit2: Set<String> = [
        "push", "run", "verify", "activities", "inspect", "phones", "phone", "channels",
    ]

    /// A usage error found while running (a payload file that does not parse): printed with `command`'s help
    /// hint; the `ExitCode` to throw is `usageExitCode`.
    static func usage(_ error: ValidationError, command: String) -> Error {
        let text = "Error: \(error.message)\n  See 'mock-apns \(command) --help' for more information.\n"
        StandardStream.error.write(text)
        return ExitCode(usageExitCode)
    }

    /// ArgumentParser's `main`, except that usage errors of `usageErrorsExit2` exit with `usageExitCode`.
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
            if let name = arguments.first, usageErrorsExit2.contains(name), exitCode(for: error) == .validationFailure {
                StandardStream.error.write(fullMessage(for: error) + "\n")
                Foundation.exit(usageExitCode)
            }
            exit(withError: error)
        }
    }
}
