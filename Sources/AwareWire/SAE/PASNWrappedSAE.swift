/// The SAE messages PASN carries in Wrapped Data with format 3 (nan-wire-reference.md
/// 3.4.1; hostap session A, subtlety 10):
/// - PASN frame 1: the commit as a bare Authentication body, no length prefix;
/// - PASN frame 2: `len (2, LE) | commit` followed by `len (2, LE) | confirm`;
/// - PASN frame 3: the confirm as a bare Authentication body.
public enum PASNWrappedSAE: Hashable, Sendable {
    case frame1(commit: SAEAuthentication)
    case frame2(commit: SAEAuthentication, confirm: SAEAuthentication)
    case frame3(confirm: SAEAuthentication)

    /// Reads the wrapped data of PASN frame `sequence` (1, 2 or 3). Frame 3's confirm takes
    /// its length from what remains, since the group travelled in frame 1.
    public init(from reader: inout WireReader, pasnSequence: UInt16) throws(WireError) {
        switch pasnSequence {
        case 1:
            self = .frame1(commit: try SAEAuthentication(from: &reader, confirmGroup: nil))
        case 2:
            let commitLength = Int(try reader.readUInt16LE("Commit Length"))
            var commitReader = try reader.subReader(length: commitLength, field: "Commit Length")
            let commit = try SAEAuthentication(from: &commitReader, confirmGroup: nil)
            try commitReader.expectEnd()
            var group: SAEGroup?
            if case .commit(let c) = commit.message { group = c.group }
            let confirmLength = Int(try reader.readUInt16LE("Confirm Length"))
            var confirmReader = try reader.subReader(length: confirmLength, field: "Confirm Length")
            let confirm = try SAEAuthentication(from: &confirmReader, confirmGroup: group)
            try confirmReader.expectEnd()
            self = .frame2(commit: commit, confirm: confirm)
        case 3:
            self = .frame3(confirm: try SAEAuthentication(from: &reader, confirmGroup: nil))
        default:
            throw reader.error(
                .invalidValue("SAE wrapped data only appears in PASN frames 1 to 3, not \(pasnSequence)")
            )
        }
    }

    public func write(to writer: inout WireWriter) {
        switch self {
        case .frame1(let commit): commit.write(to: &writer)
        case .frame2(let commit, let confirm):
            writer.withLength16LE { commit.write(to: &$0) }
            writer.withLength16LE { confirm.write(to: &$0) }
        case .frame3(let confirm): confirm.write(to: &writer)
        }
    }
}

extension PASNWrappedSAE: WireDescribable {
    public var decodedFields: [DecodedField] {
        switch self {
        case .frame1(let commit):
            [.init("saeCommit", "SAE Commit message", .fields(commit.decodedFields))]
        case .frame2(let commit, let confirm):
            [
                .init("saeCommit", "SAE Commit message", .fields(commit.decodedFields)),
                .init("saeConfirm", "SAE Confirm message", .fields(confirm.decodedFields)),
            ]
        case .frame3(let confirm):
            [.init("saeConfirm", "SAE Confirm message", .fields(confirm.decodedFields))]
        }
    }
}
