import AwareTestSupport
import Foundation

/// The session fixture (``SessionFixture``) and the frame walkers the key tests need.
enum KDFTestFixtures {
    typealias Missing = SessionFixture.Missing

    static func json(_ relativePath: String) throws -> Any { try SessionFixture.json(relativePath) }
    static func publicVectors() throws -> Any { try json("public-vectors.json") }
    static func transcript() throws -> Any { try SessionFixture.transcript() }
    static func value(_ root: Any, _ path: String) throws -> Any { try SessionFixture.value(root, path) }
    static func string(_ root: Any, _ path: String) throws -> String { try SessionFixture.string(root, path) }
    static func bytes(_ root: Any, _ path: String) throws -> [UInt8] { try SessionFixture.bytes(root, path) }
    static func sessionFrames() throws -> [[UInt8]] { try SessionFixture.sessionFrames() }
    static func frame(_ number: Int) throws -> [UInt8] { try SessionFixture.frame(number) }

    /// Elements of a PASN Authentication frame: (offset in the frame, id, whole element).
    /// The body starts after the 24-octet header with 6 octets of fixed fields.
    static func authenticationElements(_ frame: [UInt8]) throws -> [(offset: Int, id: UInt8, element: [UInt8])] {
        var elements: [(offset: Int, id: UInt8, element: [UInt8])] = []
        var offset = 24 + 6
        while offset + 2 <= frame.count {
            let end = offset + 2 + Int(frame[offset + 1])
            guard end <= frame.count else { throw Missing(description: "element at \(offset) overruns frame") }
            elements.append((offset, frame[offset], Array(frame[offset..<end])))
            offset = end
        }
        return elements
    }

    /// The offset in a NAF (category 4 or 9, action 9, OUI 50-6F-9A, OUI type 0x18, subtype)
    /// of the first attribute with ID `attributeID`, pointing at its body.
    static func nafAttributeBodyOffset(_ frame: [UInt8], attributeID: UInt8) throws -> Int {
        var offset = 24 + 7
        while offset + 3 <= frame.count {
            let length = Int(frame[offset + 1]) | Int(frame[offset + 2]) << 8
            if frame[offset] == attributeID { return offset + 3 }
            offset += 3 + length
        }
        throw Missing(description: "no attribute \(attributeID)")
    }
}
