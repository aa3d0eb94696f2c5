import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A command the operator gives the runner for what only the device's owner can do: read its PIN
/// (`--pin-command`), power-cycle it (`--reboot-command`), factory-reset it (`--reset-command`).
///
/// It runs as `/bin/sh -c COMMAND` in a process group of its own, with standard input from
/// /dev/null and the caller's environment plus what the runner adds (`AWARE_*`,
/// docs/guides/foreign-accessories.md). The runner waits for the shell to exit, not for its output
/// to close: a reboot command may leave a process running (the accessory it started). Past the
/// timeout the whole group is killed.
public struct OperatorCommand: Hashable, Sendable {
    /// The command line, as given.
    public var command: String
    /// Seconds the command may take.
    public var timeoutSeconds: Double
    /// The option that gave it (`--pin-command`), for messages.
    public var option: String

    public init(_ command: String, timeoutSeconds: Double, option: String) {
        self.command = command
        self.timeoutSeconds = timeoutSeconds
        self.option = option
    }

    /// Output kept from each stream; a PIN is one short line.
    static let outputLimit = 64 * 1024

    /// Runs the command and returns its standard output once it exited 0.
    public func run(environment extra: [String: String]) throws(OperatorCommandError) -> String {
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in extra { environment[key] = value }
        let child: SpawnedShell
        do {
            child = try SpawnedShell(command: command, environment: environment)
        } catch {
            throw OperatorCommandError(option: option, command: command, failure: .couldNotStart(error.code))
        }
        let ended = child.waitForExit(timeoutSeconds: timeoutSeconds)
        let output = String(decoding: child.output, as: UTF8.self)
        let errors = String(decoding: child.errors, as: UTF8.self)
        switch ended {
        case nil:
            throw OperatorCommandError(option: option, command: command, failure: .timedOut(seconds: timeoutSeconds))
        case .exited(0)?:
            return output
        case .exited(let status)?:
            throw OperatorCommandError(
                option: option,
                command: command,
                failure: .exited(status: status, standardError: Self.tail(errors))
            )
        case .signalled(let signal)?:
            throw OperatorCommandError(option: option, command: command, failure: .signalled(signal))
        }
    }

    /// Runs a `--pin-command` and returns the PIN on the first line of its output: 4 to 8 digits,
    /// exactly `length` when the profile says how many. Empty or malformed output throws
    /// ``OperatorCommandError/Failure/unusableOutput(_:)`` (the caller ends the attempt before
    /// frame 1, so nothing counts against the accessory's wrong-PIN limit).
    public func readPIN(environment extra: [String: String], length: Int?) throws(OperatorCommandError) -> String {
        let output = try run(environment: extra)
        let line = output.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let pin = line.trimmingCharacters(in: .whitespaces)
        if let problem = PINInput.problem(with: pin, length: length) {
            let shown = pin.isEmpty ? "an empty first line" : "\"\(String(pin.prefix(40)))\""
            throw OperatorCommandError(
                option: option,
                command: command,
                failure: .unusableOutput("printed \(shown), which \(problem); no PIN was typed")
            )
        }
        return pin
    }

    /// The last line or two of what the command wrote to standard error, for the message.
    static func tail(_ text: String) -> String {
        let lines = text.split(whereSeparator: \.isNewline).suffix(2).joined(separator: " / ")
        return String(lines.prefix(300))
    }
}

/// Why an operator's command did not do its job. Thrown from a test, it is an environment error:
/// the bench's setup failed, not the accessory (the run exits 3).
public struct OperatorCommandError: EnvironmentError, Hashable, Sendable, CustomStringConvertible {
    public enum Failure: Hashable, Sendable {
        case couldNotStart(Int32)
        case timedOut(seconds: Double)
        case exited(status: Int32, standardError: String)
        case signalled(Int32)
        /// It ran, but what it printed is not what the runner asked for.
        case unusableOutput(String)
    }

    public var option: String
    public var command: String
    public var failure: Failure

    public var description: String {
        let what: String
        switch failure {
        case .couldNotStart(let code): what = "could not be started (\(String(cString: strerror(code))))"
        case .timedOut(let seconds): what = "did not finish within \(Self.seconds(seconds)) s; it was killed"
        case .exited(let status, let errors):
            what = "exited with status \(status)" + (errors.isEmpty ? "" : ": \(errors)")
        case .signalled(let signal): what = "was killed by signal \(signal)"
        case .unusableOutput(let problem): what = problem
        }
        return "\(option) \"\(command)\" \(what)"
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// `/bin/sh -c` in its own process group, its output read as it comes.
private final class SpawnedShell {
    enum Ended: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    struct SpawnError: Error {
        var code: Int32
    }

    /// Marks every descriptor of this process above standard error close-on-exec: the runner's
    /// sockets and other children's pipes must not live on in what a command leaves running (a
    /// reader waiting for a pipe's end would wait for as long as the accessory runs). Glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` does not reach Swift; a descriptor opened by
    /// another thread between this and the spawn can still slip through.
    static func keepDescriptorsFromChildren() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
        for descriptor in names.compactMap(Int32.init) where descriptor > 2 {
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    let pid: pid_t
    private var outputDescriptor: Int32
    private var errorDescriptor: Int32
    private(set) var output: [UInt8] = []
    private(set) var errors: [UInt8] = []

    init(command: String, environment: [String: String]) throws(SpawnError) {
        var outputPipe: [Int32] = [0, 0]
        var errorPipe: [Int32] = [0, 0]
        guard pipe(&outputPipe) == 0 else { throw SpawnError(code: errno) }
        guard pipe(&errorPipe) == 0 else {
            let code = errno
            close(outputPipe[0])
            close(outputPipe[1])
            throw SpawnError(code: code)
        }
        // Not inherited by anything else the runner starts (Glibc does not export pipe2); the
        // child's dup2 onto 1 and 2 clears the flag there.
        for descriptor in outputPipe + errorPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A group of its own, so a timeout kills what the shell started too; default signal
        // handling, whatever the runner ignores.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        Self.keepDescriptorsFromChildren()
        let arguments = ["/bin/sh", "-c", command]
        let environmentLines = environment.map { "\($0.key)=\($0.value)" }
        var spawned: pid_t = 0
        let result = Self.withCStrings(arguments) { argv in
            Self.withCStrings(environmentLines) { envp in
                posix_spawn(&spawned, "/bin/sh", &actions, &attributes, argv, envp)
            }
        }
        close(outputPipe[1])
        close(errorPipe[1])
        guard result == 0 else {
            close(outputPipe[0])
            close(errorPipe[0])
            throw SpawnError(code: result)
        }
        pid = spawned
        outputDescriptor = outputPipe[0]
        errorDescriptor = errorPipe[0]
        for descriptor in [outputDescriptor, errorDescriptor] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
    }

    deinit {
        if outputDescriptor >= 0 { close(outputDescriptor) }
        if errorDescriptor >= 0 { close(errorDescriptor) }
    }

    /// Reads until the shell exits (then whatever is already in the pipes) or the time is up
    /// (then the group is killed and nil returned).
    func waitForExit(timeoutSeconds: Double) -> Ended? {
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeoutSeconds * 1000))
        while true {
            if let ended = reap() {
                drain()
                return ended
            }
            let left = deadline - ContinuousClock.now
            if left <= .zero {
                killGroup()
                return nil
            }
            var descriptors = [outputDescriptor, errorDescriptor].filter { $0 >= 0 }.map {
                pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
            }
            // Short polls: the shell's exit is noticed by waitpid, not by a closed pipe (a
            // process it left running may hold the pipe open).
            _ = poll(&descriptors, nfds_t(descriptors.count), descriptors.isEmpty ? 0 : 50)
            if descriptors.isEmpty { usleep(50_000) }
            drain()
        }
    }

    private func reap() -> Ended? {
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        guard reaped == pid else { return nil }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, spelled out: the C macros do not import.
        if status & 0x7F == 0 { return .exited((status >> 8) & 0xFF) }
        return .signalled(status & 0x7F)
    }

    private func drain() {
        output += Self.readAvailable(&outputDescriptor, limit: OperatorCommand.outputLimit - output.count)
        errors += Self.readAvailable(&errorDescriptor, limit: OperatorCommand.outputLimit - errors.count)
    }

    /// What the pipe holds now, up to `limit` octets (the rest is read and dropped); closes it
    /// at its end.
    private static func readAvailable(_ descriptor: inout Int32, limit: Int) -> [UInt8] {
        guard descriptor >= 0 else { return [] }
        var kept: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count > 0 {
                let room = max(0, limit - kept.count)
                kept += chunk[0..<min(count, room)]
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count == 0 {
                close(descriptor)
                descriptor = -1
            }
            return kept
        }
    }

    /// SIGTERM to the group, a second to go, then SIGKILL to whatever of it is left.
    private func killGroup() {
        kill(-pid, SIGTERM)
        var reaped = false
        for _ in 0..<20 where !reaped {
            reaped = reap() != nil
            if !reaped { usleep(50_000) }
        }
        kill(-pid, SIGKILL)
        if !reaped {
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
    }

    private static func withCStrings<Result>(
        _ strings: [String],
        _ body: ([UnsafeMutablePointer<CChar>?]) -> Result
    ) -> Result {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }
}
