/// Time Bitmap Control (2, LE) | Time Bitmap Length (1) | Time Bitmap
/// (nan-wire-reference.md 2.7, 2.8), as carried by availability entries, NDC and NDL
/// schedule entries.
///
/// Bit i (the LSB of octet 0 first) stands for slot i: one Bit Duration starting at
/// Start Offset + i x Bit Duration.
public struct TimeBitmap: Hashable, Sendable, WireCodable, WireDescribable {
    public var control: TimeBitmapControl
    /// At most 255 octets (1-octet length).
    public var bitmap: [UInt8]

    public init(control: TimeBitmapControl, bitmap: [UInt8]) {
        precondition(bitmap.count <= 0xFF, "Time Bitmap Length is one octet")
        self.control = control
        self.bitmap = bitmap
    }

    public init(from reader: inout WireReader) throws(WireError) {
        control = try TimeBitmapControl(from: &reader)
        let length = Int(try reader.readUInt8("Time Bitmap Length"))
        var body = try reader.subReader(length: length, field: "Time Bitmap Length")
        bitmap = body.readRemaining()
    }

    public func write(to writer: inout WireWriter) {
        control.write(to: &writer)
        writer.withLength8 { $0.write(bitmap) }
    }

    /// Indices of the set bits, lowest first.
    public var slotIndices: [Int] {
        var indices: [Int] = []
        for (octetIndex, octet) in bitmap.enumerated() {
            for bit in 0..<8 where octet & (1 << bit) != 0 {
                indices.append(octetIndex * 8 + bit)
            }
        }
        return indices
    }

    /// The TU intervals the set bits cover, one per slot, counted from the start of the
    /// repetition period (or of the schedule when Period is "no repeat"); nil when the
    /// Bit Duration code is reserved and the slot length is unknown.
    public var intervalsTU: [Range<Int>]? {
        guard let duration = control.bitDuration.timeUnits else { return nil }
        let start = control.startOffsetTU
        return slotIndices.map { (start + $0 * duration)..<(start + ($0 + 1) * duration) }
    }

    public var decodedFields: [DecodedField] {
        var fields = control.decodedFields
        fields.append(DecodedField("timeBitmapLength", "Time Bitmap Length", .unsigned(UInt64(bitmap.count))))
        fields.append(DecodedField("timeBitmap", "Time Bitmap", .bytes(bitmap)))
        return fields
    }
}
