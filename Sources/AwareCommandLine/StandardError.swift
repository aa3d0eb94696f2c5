import Foundation

/// `print(..., to: &standardError)`.
public struct StandardError: TextOutputStream {
    public init() {}

    public mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}
