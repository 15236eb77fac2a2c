import ArgumentParser
import Logging

/// What `serve` and `run` share in setting up from their options: the ports' range, and logging to standard error
/// at `--log-level`.
enum CommandLineSetup {
    /// Throws "`flag` must be 0 to 65535, got `port`" when `port` is given and out of range.
    static func validatePort(_ port: Int?, flag: String) throws {
        if let port, !(0...65_535).contains(port) { throw ValidationError("\(flag) must be 0 to 65535, got \(port)") }
    }

    /// Sends log messages at `level` and above to standard error.
    static func bootstrapLogging(_ level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
