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

    static func run(_ product: String, _ arguments: [String]) throws -> Outcome {
        let executable = productsDirectory.appendingPathComponent(product)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw CommandError.missing(product, productsDirectory.path)
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = repository
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes to the end before waiting, so a large output cannot block the child.
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self)
        )
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
