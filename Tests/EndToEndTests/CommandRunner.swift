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
        var description: String {
            switch self {
            case .missing(let product, let directory):
                "\(product) is not built in \(directory); run `swift build` (swift test builds it too)"
            }
        }
    }
}
