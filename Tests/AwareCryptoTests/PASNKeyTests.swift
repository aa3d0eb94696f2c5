import AwareTestSupport
import Testing

@testable import AwareCrypto

// Expected values: IEEE Std 802.11-2024 J.12 (public-vectors.json) and the recorded hostap
// session A (transcript.json, with the MICs also recomputed over the frames of session.pcap).
@Suite struct PASNKeyTests {
    private typealias F = KDFTestFixtures

    @Test func ptkMatchesJ12() throws {
        let v = try F.publicVectors()
        let ptk = try PASNPTK.derive(
            pmk: F.bytes(v, "pasn_ptk_j12.pmk"),
            initiatorNMI: F.bytes(v, "pasn_ptk_j12.spa"),
            responderNMI: F.bytes(v, "pasn_ptk_j12.bssid"),
            dhss: F.bytes(v, "pasn_ptk_j12.dhss"),
            akm: .pasn,
            cipher: .ccmp128
        )
        #expect(ptk.hash == .sha256)
        #expect(ptk.kck == (try F.bytes(v, "pasn_ptk_j12.kck")))
        #expect(ptk.tk == (try F.bytes(v, "pasn_ptk_j12.tk")))
        #expect(ptk.kdk == (try F.bytes(v, "pasn_ptk_j12.kdk")))
        #expect(ptk.micLength == 16)
    }

    @Test func hashRuleIsSHA384OnlyForPASNWith256BitCipher() {
        #expect(PASNPTK.hash(akm: .pasn, cipher: .gcmp256) == .sha384)
        #expect(PASNPTK.hash(akm: .sae, cipher: .gcmp256) == .sha256)
        #expect(PASNPTK.hash(akm: .pasn, cipher: .ccmp128) == .sha256)
        #expect(PASNPTK.hash(akm: .sae, cipher: .ccmp128) == .sha256)
    }

    @Test func gcmp256PTKLayoutHasA32OctetKCKAndTK() throws {
        let ptk = try PASNPTK.derive(
            pmk: Array(repeating: 1, count: 32),
            initiatorNMI: Array(repeating: 2, count: 6),
            responderNMI: Array(repeating: 3, count: 6),
            dhss: Array(repeating: 4, count: 48),
            akm: .pasn,
            cipher: .gcmp256
        )
        #expect(ptk.kck.count == 32 && ptk.tk.count == 32 && ptk.kdk.count == 32 && ptk.micLength == 24)
        let whole = try IEEE80211KDF.derive(
            hash: .sha384,
            key: Array(repeating: 1, count: 32),
            label: "PASN PTK Derivation",
            context: Array(repeating: 2, count: 6) + Array(repeating: 3, count: 6) + Array(repeating: 4, count: 48),
            length: 96
        )
        #expect(ptk.kck + ptk.tk + ptk.kdk == whole)
    }

    @Test func truncatedInputsGiveTypedErrors() {
        #expect(throws: KeyDerivationError.invalidLength(field: "initiator NMI", expected: 6, actual: 5)) {
            try PASNPTK.derive(
                pmk: [1],
                initiatorNMI: [1, 2, 3, 4, 5],
                responderNMI: [1, 2, 3, 4, 5, 6],
                dhss: Array(repeating: 0, count: 32),
                akm: .sae,
                cipher: .ccmp128
            )
        }
        #expect(throws: KeyDerivationError.invalidLength(field: "DHss", expected: 32, actual: 31)) {
            try PASNPTK.derive(
                pmk: [1],
                initiatorNMI: [1, 2, 3, 4, 5, 6],
                responderNMI: [1, 2, 3, 4, 5, 6],
                dhss: Array(repeating: 0, count: 31),
                akm: .sae,
                cipher: .ccmp128
            )
        }
    }

    /// PTK, frame-2 and frame-3 MICs of one PASN run of session A (setup or verification).
    private func checkRun(section: String, pmkPath: String, frames: (Int, Int, Int)) throws {
        let t = try F.transcript()
        let phone = try F.bytes(t, "parameters.phone.nmi")
        let accessory = try F.bytes(t, "parameters.accessory.nmi")
        let ptk = try PASNPTK.derive(
            pmk: F.bytes(t, pmkPath),
            initiatorNMI: phone,
            responderNMI: accessory,
            dhss: F.bytes(t, "\(section).dhss"),
            akm: .sae,
            cipher: .ccmp128
        )
        #expect(ptk.kck == (try F.bytes(t, "\(section).kck")))
        #expect(ptk.tk == (try F.bytes(t, "\(section).tk")))
        #expect(ptk.kdk == (try F.bytes(t, "\(section).kdk")))
        #expect(ptk.kck + ptk.tk + ptk.kdk == (try F.bytes(t, "\(section).ptk")))

        // Frame 2 from the transcript's recorded HMAC input (responder NMI first).
        let recordedInput = try F.bytes(t, "\(section).mic_frame2.hmac_input")
        let recordedMIC2 = try F.bytes(t, "\(section).mic_frame2.value")
        #expect(Array(KDFHash.sha256.hmac(key: ptk.kck, recordedInput).prefix(16)) == recordedMIC2)

        // Frame 2 from the pcap bytes: own RSNE and RSNXE, body with the MIC zeroed.
        var frame2 = try F.frame(frames.1)
        let elements2 = try F.authenticationElements(frame2)
        let rsne = try #require(elements2.first { $0.id == 48 }).element
        let rsnxe = try #require(elements2.first { $0.id == 244 }).element
        #expect(rsne + rsnxe == (try F.bytes(t, "\(section).mic_frame2.data_rsne_rsnxe")))
        let mic2 = try #require(elements2.first { $0.id == 140 })
        let mic2Range = (mic2.offset + 2)..<(mic2.offset + mic2.element.count)
        #expect(Array(frame2[mic2Range]) == recordedMIC2)
        for index in mic2Range { frame2[index] = 0 }
        let body2 = Array(frame2[24...])
        #expect(recordedInput == accessory + phone + rsne + rsnxe + body2)
        let computed2 = try PASNMIC.frame2(
            ptk: ptk,
            initiatorNMI: phone,
            responderNMI: accessory,
            rsne: rsne,
            rsnxe: rsnxe,
            frameBody: body2
        )
        #expect(computed2 == recordedMIC2)
        try PASNMIC.verifyFrame2(
            recordedMIC2,
            ptk: ptk,
            initiatorNMI: phone,
            responderNMI: accessory,
            rsne: rsne,
            rsnxe: rsnxe,
            frameBody: body2
        )

        // Frame 3: hash of frame 1's body, frame 3's body with the MIC zeroed.
        let frame1Body = Array(try F.frame(frames.0)[24...])
        #expect(KDFHash.sha256.digest(frame1Body) == (try F.bytes(t, "\(section).mic_frame3.auth1_hash")))
        var frame3 = try F.frame(frames.2)
        let mic3 = try #require(try F.authenticationElements(frame3).first { $0.id == 140 })
        let mic3Range = (mic3.offset + 2)..<(mic3.offset + mic3.element.count)
        let recordedMIC3 = try F.bytes(t, "\(section).mic_frame3.value")
        #expect(Array(frame3[mic3Range]) == recordedMIC3)
        for index in mic3Range { frame3[index] = 0 }
        let body3 = Array(frame3[24...])
        #expect(
            (try F.bytes(t, "\(section).mic_frame3.hmac_input"))
                == phone + accessory + KDFHash.sha256.digest(frame1Body) + body3
        )
        let computed3 = try PASNMIC.frame3(
            ptk: ptk,
            initiatorNMI: phone,
            responderNMI: accessory,
            frame1Body: frame1Body,
            frameBody: body3
        )
        #expect(computed3 == recordedMIC3)
        try PASNMIC.verifyFrame3(
            recordedMIC3,
            ptk: ptk,
            initiatorNMI: phone,
            responderNMI: accessory,
            frame1Body: frame1Body,
            frameBody: body3
        )

        // A wrong MIC, or the right MIC over a modified body, is refused.
        var wrong = recordedMIC3
        wrong[15] ^= 0x80
        #expect(throws: KeyDerivationError.verificationFailed(what: "PASN frame 3 MIC")) {
            try PASNMIC.verifyFrame3(
                wrong,
                ptk: ptk,
                initiatorNMI: phone,
                responderNMI: accessory,
                frame1Body: frame1Body,
                frameBody: body3
            )
        }
        var modified = body2
        modified[modified.count - 20] ^= 0x01
        #expect(throws: KeyDerivationError.verificationFailed(what: "PASN frame 2 MIC")) {
            try PASNMIC.verifyFrame2(
                recordedMIC2,
                ptk: ptk,
                initiatorNMI: phone,
                responderNMI: accessory,
                rsne: rsne,
                rsnxe: rsnxe,
                frameBody: modified
            )
        }
        #expect(throws: KeyDerivationError.invalidLength(field: "PASN frame 2 MIC", expected: 16, actual: 15)) {
            try PASNMIC.verifyFrame2(
                Array(recordedMIC2.prefix(15)),
                ptk: ptk,
                initiatorNMI: phone,
                responderNMI: accessory,
                rsne: rsne,
                rsnxe: rsnxe,
                frameBody: body2
            )
        }
    }

    @Test func sessionAPairingReproducesPTKAndMICs() throws {
        try checkRun(section: "pairing.pasn", pmkPath: "pairing.pasn.pmk", frames: (14, 15, 16))
    }

    @Test func sessionAVerificationReproducesPTKAndMICs() throws {
        try checkRun(section: "verification", pmkPath: "verification.pmk_is_npk", frames: (35, 36, 37))
    }
}
