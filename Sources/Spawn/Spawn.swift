#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starting a program and waiting for it, with `posix_spawn` and `waitpid`: for `mock-apns run`'s COMMAND and the
/// programs the tests start. Not Foundation's `Process`, for two reasons:
///
/// - On Linux, `Process` learns that a child ended when a socket the child holds closes, and a program another
///   thread starts at that moment, or a background grandchild, can inherit that socket: the exit then goes
///   unnoticed until that program ends too (swift-corelibs-foundation issue 4795). A child here is waited for by
///   its process id, and gets no descriptor but the three it is given.
/// - `Process` passes on the spawning thread's signal mask, and the threads of a Swift program block most signals
///   (SIGTERM included): the child would never see a SIGTERM. Here every signal is unblocked and at its default
///   disposition, as a shell starts a program.
package enum Spawn {
    /// How a program ended.
    package enum Termination: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)
    }

    /// Why a program could not be started: `posix_spawn`'s error, as `strerror` says it.
    package struct Failure: Error, CustomStringConvertible {
        /// The error number `posix_spawn` returned.
        package var code: Int32
        package var description: String { String(cString: strerror(code)) }
    }

    /// Starts `executable` (a path) with `arguments` (the first one is the program's name, `argv[0]`) and
    /// `environment`, in `directory` if given. `standardInput`, `standardOutput` and `standardError` are the
    /// descriptors it gets as 0, 1 and 2 (nil: ours); nothing else is inherited. With `ownProcessGroup` it leads a
    /// process group of its own, so that `kill(-pid, …)` reaches whatever it starts. `whenEnded` is called, on the
    /// thread that waits for it, once it has ended.
    package static func start(
        _ executable: String, arguments: [String], environment: [String: String], directory: String? = nil,
        standardInput: Int32? = nil, standardOutput: Int32? = nil, standardError: Int32? = nil,
        ownProcessGroup: Bool = false, whenEnded: (@Sendable (Termination) -> Void)? = nil
    ) throws(Failure) -> SpawnedChild {
        let pid = try spawn(
            executable, arguments: arguments, environment: environment, directory: directory,
            standardInput: standardInput, standardOutput: standardOutput, standardError: standardError,
            ownProcessGroup: ownProcessGroup)
        return SpawnedChild(pid: pid, whenEnded: whenEnded)
    }

    private static func spawn(
        _ executable: String, arguments: [String], environment: [String: String], directory: String?,
        standardInput: Int32?, standardOutput: Int32?, standardError: Int32?, ownProcessGroup: Bool
    ) throws(Failure) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            flags |= POSIX_SPAWN_SETPGROUP
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        #if canImport(Darwin)
        flags |= POSIX_SPAWN_CLOEXEC_DEFAULT  // Darwin's "close the rest"; glibc's is `addCloseFrom` below
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var files = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&files)
        defer { posix_spawn_file_actions_destroy(&files) }
        for (source, target) in [(standardInput, 0), (standardOutput, 1), (standardError, 2)] {
            if let source, source != target { posix_spawn_file_actions_adddup2(&files, source, Int32(target)) }
        }
        // After the dup2s, which read their sources: the listening sockets, pipes and event-loop descriptors of
        // this process stay here, so a child (or its background grandchild) can hold none of them open.
        try addCloseFrom(3, to: &files)
        if let directory { try addChangeDirectory(directory, to: &files) }

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable, &files, &attributes, argv, envp)
        guard result == 0 else { throw Failure(code: result) }
        return pid
    }

    /// Blocks until `pid` has ended, without reaping it: its id stays taken, so a `kill` before `wait` cannot reach
    /// another process that was given the same id.
    static func waitUntilEnded(_ pid: pid_t) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
    }

    /// Blocks until `pid` ends, reaps it, and says how it ended (decoding the wait status as `WIFEXITED` and
    /// `WTERMSIG` do: Swift cannot import those macros). `exited(-1)` if `pid` is not a child of this process.
    static func wait(_ pid: pid_t) -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return .exited(-1) }
        }
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    // glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34) and `_addchdir_np` (2.29) are not in Swift's Glibc
    // module, so they are looked up by name.
    private typealias FileActions = UnsafeMutablePointer<posix_spawn_file_actions_t>

    /// Adds "close every descriptor from `lowest` up" to `files`. With a glibc older than 2.34 there is no such
    /// action and the child inherits them (as it would from a shell).
    private static func addCloseFrom(_ lowest: Int32, to files: inout posix_spawn_file_actions_t) throws(Failure) {
        #if os(Linux)
        typealias CloseFrom = @convention(c) (FileActions, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        let result = unsafeBitCast(symbol, to: CloseFrom.self)(&files, lowest)
        guard result == 0 else { throw Failure(code: result) }
        #endif
    }

    /// Adds "change to `path`" to `files` (glibc 2.29 and later; elsewhere `ENOSYS`).
    private static func addChangeDirectory(_ path: String, to files: inout posix_spawn_file_actions_t) throws(Failure)
    {
        #if os(Linux)
        typealias ChangeDirectory = @convention(c) (FileActions, UnsafePointer<CChar>) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { throw Failure(code: ENOSYS) }
        let result = unsafeBitCast(symbol, to: ChangeDirectory.self)(&files, path)
        guard result == 0 else { throw Failure(code: result) }
        #else
        throw Failure(code: ENOSYS)
        #endif
    }
}
