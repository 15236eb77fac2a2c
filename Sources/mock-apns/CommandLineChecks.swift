import ArgumentParser
import Logging

/// Option rules shared by `serve` and `run`: ports, `--log-level`, and logging to standard error.
enum CommandLineChecks {
    /// A usage error unless `text` names a log level.
    static func checkLogLevel(_ text: String) throws {
        if Logger.Level(rawValue: text) == nil {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
    }

    /// Throws "`flag` must be 0 to 65535, got `port`" when `port` is given and out of range.
    static func checkPort(_ port: Int?, flag: String) throws {
        if let port, !(0...65_535).contains(port) { throw ValidationError("\(flag) must be 0 to 65535, got \(port)") }
    }

    /// Sends log messages at `level` (a level `checkLogLevel` accepted; else `fallback`) and above to standard error.
    static func bootstrapLogging(_ level: String, fallback: Logger.Level) {
        let level = Logger.Level(rawValue: level) ?? fallback
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
