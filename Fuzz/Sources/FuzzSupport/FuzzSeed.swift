#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One starting input of a corpus, with a name that says where it came from.
public struct FuzzSeed: Sendable {
    public var name: String
    public var bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    /// Writes every seed to `directory/<name>`; false (and a line on standard error) when
    /// one cannot be written.
    static func write(_ seeds: [FuzzSeed], to directory: String) -> Bool {
        for seed in seeds {
            let path = directory + "/" + seed.name
            guard let file = fopen(path, "wb") else {
                print("cannot write \(path)")
                return false
            }
            let written = seed.bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
            fclose(file)
            guard written == seed.bytes.count else {
                print("cannot write \(path)")
                return false
            }
        }
        print("wrote \(seeds.count) seeds to \(directory)")
        return true
    }
}
