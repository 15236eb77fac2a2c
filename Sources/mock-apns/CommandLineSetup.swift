import ArgumentParser
import Logging

/// Option rules shared by `serve` and `run`: ports, `--log-level`, and logging to standard error.
enum CommandLineChecks {
    /// Throws "`flag` must be 0 to 65535, got `port`" when `port` is given and out of range.
    static func checkPort(_ port: Int?, flag: String) throws {
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
