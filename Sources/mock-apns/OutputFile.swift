import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file a command writes at its end (`--junit`, `--report`, `--journal`, `--record`), checked before the work
/// starts: a CI run must not play a whole provider and then lose its verdict to a folder that did not exist.
enum OutputFile {
    /// Makes `path` writable before the run: creates its missing parent folders (as `mkdir -p`), and refuses a
    /// path that is a folder, under something that is not a folder, or in a folder (or a file) it cannot write.
    /// The `CLIError` names the flag, the path and the folder.
    ///
    /// - Parameter replaced: whether the file is written whole through a temporary file beside it, which needs the
    ///   folder writable; a file appended to in place (`serve --journal /dev/stdout`) needs only itself writable.
    static func prepare(_ path: String, flag: String, replaced: Bool = true) throws(CLIError) {
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        if exists, isFolder.boolValue {
            throw CLIError("\(flag) \(path): it is a folder; give the path of a file in it")
        }
        // As the user wrote it (`build`, not `/home/…/build`), so that the message names what they typed.
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw CLIError("\(flag) \(path): cannot create the folder \(folder): \(reason(error))")
            }
        } else if !isFolder.boolValue {
            throw CLIError("\(flag) \(path): \(folder) is a file, not a folder")
        }
        if replaced || !exists, access(folder, W_OK) != 0 {
            throw CLIError("\(flag) \(path): cannot write in the folder \(folder): \(String(cString: strerror(errno)))")
        }
        if exists, access(path, W_OK) != 0 {
            throw CLIError("\(flag) \(path): cannot write it: \(String(cString: strerror(errno)))")
        }
    }

    /// Writes `text` to `path` whole (through a temporary file beside it), creating its folder again if it went
    /// away while the command ran.
    static func write(_ text: String, to path: String, flag: String) throws(CLIError) {
        try prepare(path, flag: flag)
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw CLIError("\(flag) \(path): cannot write it: \(reason(error))")
        }
    }

    /// Why a file operation failed, as the system says it (`No space left on device`), rather than Foundation's
    /// wording of its own error codes ("The file doesn't exist").
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return nsError.localizedDescription
    }
}
