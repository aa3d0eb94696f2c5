import AwareCore
import Testing

@testable import AwareWire

/// The SAE messages inside PASN Wrapped Data, pinned to hostap session A (frames 14-16;
/// hex copied from session.pcap, expected values from transcript.json pairing.sae).
@Suite struct SAEWrappedDataTests {
    static let frame14 = hex(
        "030001007e0013006159d99448207256f14e41f25f601a247040ed1fd748b63e07c9270a454889ebdeaa7cacb53e420e"
            + "1bfc460b8cf52d79aef716186f00bd33c72066796cc09230786bb603420a1e24e407f0126d34e5294d6a945d7fc5916b"
            + "8cdba0205bc7f27c"
    )
    static let frame15 = hex(
        "6800030001007e00130085d208080939430f280f59f7fdba04673f3d300bf591a77c75a0816e318825ddc3f8b7f11771"
            + "afee7afa955068c82f3e09ef69fbf8be63c873b81aed79662f955e8762988887812a9245b30cceca6d513c914fbeb54e"
            + "2085e8055ccc4ea123ba28000300020000000100232206574025641e4b491c08d9165d360cd446a2b6319e8a9993bb71"
            + "e655e7be"
    )
    static let frame16 = hex("03000200000001006f9183593275f69dc00a33a5d286aa2dd6ed6bfe2a22749a0c1d842505978e47")

    static func hex(_ text: String) -> [UInt8] { HexString.decode(text)! }

    func decode(_ bytes: [UInt8], sequence: UInt16) throws -> PASNWrappedSAE {
        var reader = WireReader(bytes, structure: "Wrapped Data")
        let value = try PASNWrappedSAE(from: &reader, pasnSequence: sequence)
        try reader.expectEnd()
        return value
    }

    @Test func frame1CarriesThePhoneCommit() throws {
        let decoded = try decode(Self.frame14, sequence: 1)
        guard case .frame1(let auth) = decoded, case .commit(let commit) = auth.message else {
            Issue.record("expected a commit, got \(decoded)")
            return
        }
        #expect(auth.algorithm == 3)
        #expect(auth.transactionSequence == 1)
        #expect(auth.status == 126)
        #expect(commit.group == .p256)
        #expect(commit.scalar == Self.hex("6159d99448207256f14e41f25f601a247040ed1fd748b63e07c9270a454889eb"))
        #expect(
            commit.element
                == Self.hex(
                    "deaa7cacb53e420e1bfc460b8cf52d79aef716186f00bd33c72066796cc09230"
                        + "786bb603420a1e24e407f0126d34e5294d6a945d7fc5916b8cdba0205bc7f27c"
                )
        )
        #expect(commit.trailing.isEmpty)
    }

    @Test func frame2CarriesLengthPrefixedCommitAndConfirm() throws {
        let decoded = try decode(Self.frame15, sequence: 2)
        guard case .frame2(let commitAuth, let confirmAuth) = decoded,
            case .commit(let commit) = commitAuth.message,
            case .confirm(let confirm) = confirmAuth.message
        else {
            Issue.record("expected commit and confirm, got \(decoded)")
            return
        }
        #expect(commit.scalar == Self.hex("85d208080939430f280f59f7fdba04673f3d300bf591a77c75a0816e318825dd"))
        #expect(confirmAuth.transactionSequence == 2)
        #expect(confirmAuth.status == 0)
        #expect(confirm.sendConfirm == 1)
        #expect(confirm.confirm == Self.hex("232206574025641e4b491c08d9165d360cd446a2b6319e8a9993bb71e655e7be"))
    }

    @Test func frame3CarriesThePhoneConfirm() throws {
        let decoded = try decode(Self.frame16, sequence: 3)
        guard case .frame3(let auth) = decoded, case .confirm(let confirm) = auth.message else {
            Issue.record("expected a confirm, got \(decoded)")
            return
        }
        #expect(confirm.sendConfirm == 1)
        #expect(confirm.confirm == Self.hex("6f9183593275f69dc00a33a5d286aa2dd6ed6bfe2a22749a0c1d842505978e47"))
    }

    @Test(arguments: [(frame15, UInt16(2)), (frame14, UInt16(1)), (frame16, UInt16(3))])
    func roundTrips(bytes: [UInt8], sequence: UInt16) throws {
        var writer = WireWriter()
        try decode(bytes, sequence: sequence).write(to: &writer)
        #expect(writer.bytes == bytes)
    }

    @Test func lyingCommitLengthIsAnError() {
        var bytes = Self.frame15
        bytes[0] = 0xF0  // commit length 0xF0 > what remains
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 0xF0, actual: bytes.count - 2),
                structure: "Wrapped Data",
                field: "Commit Length",
                offset: 2
            )
        ) {
            _ = try decode(bytes, sequence: 2)
        }
    }

    @Test func truncatedCommitNamesTheElement() {
        let bytes = Array(Self.frame14.prefix(60))
        #expect(
            throws: WireError(.truncated(need: 64, have: 20), structure: "Wrapped Data", field: "Element", offset: 40)
        ) {
            _ = try decode(bytes, sequence: 1)
        }
    }
}
