import Foundation
import Testing

/// Runs the package's own executables the way a person or a CI script does.
struct CommandRunner {
    struct Outcome {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The repository root, from this file's place in it.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The products sit next to the test bundle in the build folder.
    static var productsDirectory: URL {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        // Under swift-testing the runner may live inside the .xctest bundle; walk up to it.
        while directory.path != "/"
            && !FileManager.default.fileExists(atPath: directory.appendingPathComponent("aware-conform").path)
        {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }

    /// Runs `product` and waits for it, blocking the calling thread. Tests call the `async`
    /// overload, which waits without holding one of the test pool's threads.
    static func run(_ product: String, _ arguments: [String]) throws -> Outcome {
        let executable = productsDirectory.appendingPathComponent(product)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw CommandError.missing(product, productsDirectory.path)
        }
        // A catalogue run keeps failing tests' evidence under the working directory unless told
        // where; the children run in the checkout (for its relative profile paths), and the runs
        // that fail by design would leave aware-conform-evidence/ in a user's clone. Runs that
        // do not name a directory get a temporary one, removed when they end.
        var arguments = arguments
        var scratch: URL?
        if product == "aware-conform", arguments.first == "run", !arguments.contains("--evidence") {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("awb-evidence-\(UUID().uuidString)")
            arguments += ["--evidence", directory.path]
            scratch = directory
        }
        defer { if let scratch { try? FileManager.default.removeItem(at: scratch) } }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = repository
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes to the end before waiting (standard error on a thread of its own), so a
        // large output on either cannot block the child.
        let errorReader = PipeReader(error)
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errorReader.data()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self)
        )
    }

    /// Runs `product` and waits for it without holding a thread of Swift's cooperative pool.
    ///
    /// Swift Testing runs tests on that pool, which has one thread per core: two on this
    /// project's machines. A test that blocked a pool thread for the minutes a child process
    /// takes kept every other test waiting, and the suite's wall time was the sum of its
    /// end-to-end tests. Here the child is waited for on a thread of its own, and at most
    /// ``ChildSlots/width`` children run at once, so the end-to-end tests overlap without
    /// loading the machine past what the wall-clock tests among them tolerate.
    static func run(_ product: String, _ arguments: [String]) async throws -> Outcome {
        await ChildSlots.shared.acquire()
        let result = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: Result { try run(product, arguments) as Outcome })
            }
        }
        await ChildSlots.shared.release()
        return try result.get()
    }

    enum CommandError: Error, CustomStringConvertible {
        case missing(String, String)
        /// A background program ended before the line a test waited for; what it printed.
        case ended(String)
        var description: String {
            switch self {
            case .missing(let product, let directory):
                "\(product) is not built in \(directory); run `swift build` (swift test builds it too)"
            case .ended(let output): "the program ended before the awaited line; it printed: \(output.suffix(400))"
            }
        }
    }
}

/// One of the package's programs running beside a test (an accessory on a socket air), stopped
/// with SIGTERM when the test is done. Its standard output is read until a line the test waits
/// for, then drained so the program never blocks on a full pipe.
final class BackgroundProcess {
    let process = Process()
    private let output = Pipe()

    init(_ product: String, _ arguments: [String]) throws {
        process.executableURL = CommandRunner.productsDirectory.appendingPathComponent(product)
        process.arguments = arguments
        process.currentDirectoryURL = CommandRunner.repository
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Reads standard output until a line contains `text`; throws when the program ends first.
    func waitForLine(containing text: String) throws {
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains(text) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw CommandRunner.CommandError.ended(String(decoding: seen, as: UTF8.self)) }
            seen.append(chunk)
        }
        let handle = output.fileHandleForReading
        Thread.detachNewThread {
            while !handle.availableData.isEmpty {}
        }
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

/// Reads a pipe to its end on a thread of its own.
final class PipeReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var collected = Data()

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            collected = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything the pipe carried; waits for its end.
    func data() -> Data {
        done.wait()
        return collected
    }
}

/// How many child programs the end-to-end tests run at once (``CommandRunner/run(_:_:)``).
actor ChildSlots {
    /// Four: the spawn-target tests start children of their own, and more than this on two cores
    /// turns wall-clock verdicts into a measure of the test machine.
    static let width = 4
    static let shared = ChildSlots()

    private var free = width
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
