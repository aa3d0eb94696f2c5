/// The plaintext Key Data of the NIK Shared Key Descriptor (nan-wire-reference.md 3.6):
/// NIK KDE `DD 15 50 6F 9A 24 | cipher version 0 | NIK(16)`, Key Lifetime KDE
/// `DD 0A 50 6F 9A 25 | key bitmap (LE16) | lifetime (BE32)`, then `DD 00 ...` padding to a
/// multiple of 8, wrapped with the NM-KEK (AES key wrap).
public struct NIKKeyData: Hashable, Sendable {
    /// Key Lifetime KDE key bitmap bit for the NIK (b3).
    public static let nikBitmapBit: UInt16 = 0x0008
    static let wfaOUI: [UInt8] = [0x50, 0x6F, 0x9A]
    static let nikKDEType: UInt8 = 0x24
    static let lifetimeKDEType: UInt8 = 0x25

    public let nik: [UInt8]
    /// NIK lifetime in seconds; nil when the sender left the Lifetime KDE out (ESP-IDF notes
    /// that iPhones do, 3.9).
    public let lifetime: UInt32?
    /// Key bitmap of the Lifetime KDE (0x0008 = NIK).
    public let keyBitmap: UInt16

    public init(
        nik: [UInt8],
        lifetime: UInt32?,
        keyBitmap: UInt16 = NIKKeyData.nikBitmapBit
    )
        throws(KeyDerivationError)
    {
        try KeyDerivationError.requireLength(nik, NIRATag.nikLength, "NIK")
        self.nik = nik
        self.lifetime = lifetime
        self.keyBitmap = keyBitmap
    }

    /// The KDEs with padding, ready for AES key wrap.
    public func plaintext() -> [UInt8] {
        var out: [UInt8] = [0xDD, 0x15] + NIKKeyData.wfaOUI + [NIKKeyData.nikKDEType, NIRATag.cipherVersion] + nik
        if let lifetime {
            out += [0xDD, 0x0A] + NIKKeyData.wfaOUI + [NIKKeyData.lifetimeKDEType]
            out += [UInt8(truncatingIfNeeded: keyBitmap), UInt8(truncatingIfNeeded: keyBitmap >> 8)]
            out += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: lifetime >> $0) }
        }
        if !out.count.isMultiple(of: 8) {
            out.append(0xDD)
            while !out.count.isMultiple(of: 8) { out.append(0x00) }
        }
        return out
    }

    public func wrapped(kek: [UInt8]) throws(KeyDerivationError) -> [UInt8] {
        try AESKeyWrap.wrap(plaintext(), kek: kek)
    }

    public static func unwrap(_ wrapped: [UInt8], kek: [UInt8]) throws(KeyDerivationError) -> NIKKeyData {
        try parse(AESKeyWrap.unwrap(wrapped, kek: kek))
    }

    /// Reads the KDEs of decrypted key data. Elements other than the two NAN KDEs are skipped;
    /// the NIK KDE is required, the Lifetime KDE optional.
    public static func parse(_ plaintext: [UInt8]) throws(KeyDerivationError) -> NIKKeyData {
        var nik: [UInt8]?
        var lifetime: UInt32?
        var bitmap = nikBitmapBit
        var offset = 0
        while offset < plaintext.count {
            let id = plaintext[offset]
            if id == 0xDD, offset + 1 == plaintext.count || plaintext[offset + 1] == 0 {
                guard plaintext[(offset + 1)...].allSatisfy({ $0 == 0 }) else {
                    throw .malformedKeyData(reason: "non-zero octet after the DD padding at offset \(offset)")
                }
                break
            }
            guard offset + 2 <= plaintext.count else {
                throw .malformedKeyData(reason: "element at offset \(offset) has no length octet")
            }
            let length = Int(plaintext[offset + 1])
            let start = offset + 2
            guard start + length <= plaintext.count else {
                throw .malformedKeyData(reason: "element at offset \(offset) runs past the end")
            }
            let body = Array(plaintext[start..<(start + length)])
            offset = start + length
            guard id == 0xDD, body.count >= 4, Array(body[0..<3]) == wfaOUI else { continue }
            switch body[3] {
            case nikKDEType:
                guard body.count == 4 + 1 + NIRATag.nikLength else {
                    throw .malformedKeyData(reason: "NIK KDE length \(length), expected 21")
                }
                guard body[4] == NIRATag.cipherVersion else {
                    throw .malformedKeyData(reason: "NIK KDE cipher version \(body[4]), expected 0")
                }
                nik = Array(body[5...])
            case lifetimeKDEType:
                guard body.count == 4 + 2 + 4 else {
                    throw .malformedKeyData(reason: "Key Lifetime KDE length \(length), expected 10")
                }
                bitmap = UInt16(body[4]) | UInt16(body[5]) << 8
                lifetime = body[6...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            default:
                continue
            }
        }
        guard let nik else { throw .malformedKeyData(reason: "no NIK KDE") }
        return try NIKKeyData(nik: nik, lifetime: lifetime, keyBitmap: bitmap)
    }
}
