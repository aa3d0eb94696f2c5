import Foundation

/// The independent programs tests compare against (Python's jsonschema, tshark), found the
/// way `ci/setup` installs them. A test that needs one and cannot find it fails, saying to
/// run `./ci/setup`; it never skips.
public enum ExternalTool {
    public static let setupAdvice = "run ./ci/setup (it installs tshark and python3-jsonschema)"

    /// `python3` on PATH, then Debian's, whichever can import jsonschema.
    public static func pythonWithJSONSchema() -> [String]? {
        for candidate in [["/usr/bin/env", "python3"], ["/usr/bin/python3"]] {
            if let result = try? run(candidate + ["-c", "import jsonschema"]), result.status == 0 {
                return candidate
            }
        }
        return nil
    }

    /// Validates the JSON document at `document` against the schema at `schema`.
    public static func validateJSONSchema(python: [String], schema: String, document: String) throws -> Outcome {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1])); document = json.load(open(sys.argv[2]))
            jsonschema.validators.validator_for(schema)(schema).validate(document)
            """
        return try run(python + ["-c", script, schema, document])
    }

    /// Where ci/setup installs tshark (Debian's package).
    public static let tsharkPath = "/usr/bin/tshark"

    /// The judge for our captures: runs tshark with `arguments`. A missing tshark is an error
    /// that says to run ci/setup; a test never skips for it.
    public static func tshark(_ arguments: [String]) throws -> Outcome {
        guard FileManager.default.isExecutableFile(atPath: tsharkPath) else {
            throw MissingTool(name: "tshark", path: tsharkPath)
        }
        return try run([tsharkPath] + arguments)
    }

    /// A program the tests compare against is not installed.
    public struct MissingTool: Error, CustomStringConvertible {
        public var name: String
        public var path: String
        public var description: String { "\(name) not found at \(path): \(ExternalTool.setupAdvice)" }
    }

    public struct Outcome: Sendable {
        public var status: Int32
        public var output: String
        public var errors: String
    }

    /// Runs `command` (an absolute path, then arguments) to the end.
    public static func run(_ command: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self)
        )
    }
}
