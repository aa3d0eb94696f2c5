/// The end of a transfer: whether what arrived hashes to what the server announced.
public struct FileTransferResult: Hashable, Sendable {
    public var name: String
    public var size: UInt64
    public var receivedBytes: UInt64
    /// From the file header.
    public var expectedSHA256: [UInt8]
    /// Over every octet received, resumes included.
    public var computedSHA256: [UInt8]
    /// Times the transfer was resumed.
    public var resumes: Int

    public init(
        name: String,
        size: UInt64,
        receivedBytes: UInt64,
        expectedSHA256: [UInt8],
        computedSHA256: [UInt8],
        resumes: Int
    ) {
        self.name = name
        self.size = size
        self.receivedBytes = receivedBytes
        self.expectedSHA256 = expectedSHA256
        self.computedSHA256 = computedSHA256
        self.resumes = resumes
    }

    public var matches: Bool { receivedBytes == size && computedSHA256 == expectedSHA256 }
}
