import Foundation

/// A fresh path under the temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "awb-device-state-\(UUID().uuidString.prefix(8))"
            ).path
    }

    func file(_ name: String) -> String { path + "/" + name }

    func write(_ text: String, to name: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
    }

    func contents(_ name: String) -> Data? { FileManager.default.contents(atPath: file(name)) }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
