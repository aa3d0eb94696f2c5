import Foundation

/// Standard output in 64 KiB writes: decoding a 100,000-frame capture prints millions of
/// lines, and a write per line would cost more than the decoding.
public struct OutputBuffer {
    private var pending: [UInt8] = []
    private let handle: FileHandle

    public init(_ handle: FileHandle = .standardOutput) {
        self.handle = handle
        pending.reserveCapacity(1 << 16)
    }

    public mutating func line(_ text: String) {
        pending.append(contentsOf: text.utf8)
        pending.append(0x0A)
        if pending.count >= 1 << 16 { flush() }
    }

    public mutating func flush() {
        guard !pending.isEmpty else { return }
        handle.write(Data(pending))
        pending.removeAll(keepingCapacity: true)
    }
}
