import AwareTestSupport
import Testing

@testable import AwareCrypto

// Expected values: hostap nan_module_tests.c and Wi-Fi Aware v4.0 M.1 TV1 (public-vectors.json),
// the recorded hostap session A (transcript.json and the frames of session.pcap), and for the
// CSID-2 passphrase case Python's hashlib.pbkdf2_hmac.
@Suite struct NANKeyTests {
    private typealias F = KDFTestFixtures

    // MARK: public vectors

    @Test func ndpPTKMatchesHostapModuleTests() throws {
        let v = try F.publicVectors()
        let p = "nan_ndp_crypto_hostap_module_tests"
        for (suite, name) in [(NANSecurityCipherSuite.ncsSK128, "ptk_ncs_sk_128"), (.ncsSK256, "ptk_ncs_sk_256")] {
            let ptk = try NDPPTK.derive(
                pmk: F.bytes(v, "\(p).key"),
                initiatorNDI: F.bytes(v, "\(p).iaddr"),
                responderNDI: F.bytes(v, "\(p).raddr"),
                iNonce: F.bytes(v, "\(p).inonce"),
                rNonce: F.bytes(v, "\(p).rnonce"),
                suite: suite
            )
            #expect(ptk.kck == (try F.bytes(v, "\(p).\(name).kck")))
            #expect(ptk.kek == (try F.bytes(v, "\(p).\(name).kek")))
            #expect(ptk.tk == (try F.bytes(v, "\(p).\(name).tk")))
        }
    }

    @Test func ndpPMKIDMICAndAuthTokenMatchHostapModuleTests() throws {
        let v = try F.publicVectors()
        let p = "nan_ndp_crypto_hostap_module_tests"
        let key = try F.bytes(v, "\(p).key")
        let inonce = try F.bytes(v, "\(p).inonce")
        let tokenInput = Array(try F.string(v, "\(p).auth_token_input_ascii").utf8)
        for (suite, size) in [(NANSecurityCipherSuite.ncsSK128, "128"), (.ncsSK256, "256")] {
            let pmkid = try NDPMK.pmkid(
                pmk: key,
                initiatorNMI: F.bytes(v, "\(p).iaddr"),
                responderNMI: F.bytes(v, "\(p).raddr"),
                serviceID: F.bytes(v, "\(p).service_id"),
                suite: suite
            )
            #expect(pmkid == (try F.bytes(v, "\(p).pmkid_\(size)")))
            // hostap's vector uses the 32-octet key as the KCK.
            let ptk = NDPPTK(suite: suite, kck: key, kek: [], tk: [])
            let mic = try F.bytes(v, "\(p).mic_over_inonce_\(size)")
            #expect(NDPKeyDescriptorMIC.mic(ptk: ptk, bodyWithMICZeroed: inonce) == mic)
            try NDPKeyDescriptorMIC.verify(mic, ptk: ptk, bodyWithMICZeroed: inonce)
        }
        #expect(
            NDPKeyDescriptorMIC.authToken(m1Body: tokenInput, suite: .ncsSK128)
                == (try F.bytes(v, "\(p).auth_token_sha256_16"))
        )
        #expect(
            NDPKeyDescriptorMIC.authToken(m1Body: tokenInput, suite: .ncsPKPASN256)
                == (try F.bytes(v, "\(p).auth_token_sha384_16"))
        )
    }

    @Test func ndPMKFromPassphraseMatchesM1TV1() throws {
        let v = try F.publicVectors()
        let p = "nd_pmk_from_passphrase_m1_tv1"
        let suite = try NANSecurityCipherSuite(csid: 1)
        let pmk = try NDPMK.fromPassphrase(
            F.string(v, "\(p).passphrase"),
            suite: suite,
            serviceID: F.bytes(v, "\(p).service_id"),
            publisherNMI: F.bytes(v, "\(p).publisher_nmi")
        )
        #expect(pmk == (try F.bytes(v, "\(p).nd_pmk")))
    }

    @Test func ndPMKFromPassphraseUsesSHA384ForCSID2() throws {
        let pmk = try NDPMK.fromPassphrase(
            "NAN",
            suite: .ncsSK256,
            serviceID: hex("2b9c450f6671"),
            publisherNMI: hex("02904c12d001")
        )
        #expect(pmk == hex("1bb609117ff0831059467cadb2392b33b193a4db793673f1d389ae5a0271728d"))
    }

    @Test func unsupportedCipherSuitesAreRefused() throws {
        #expect(throws: KeyDerivationError.unsupportedCipherSuite(csid: 3)) { try NANSecurityCipherSuite(csid: 3) }
        #expect(throws: KeyDerivationError.unsupportedCipherSuite(csid: 1)) {
            try NANPairingKeys.nmKEK(
                kdk: Array(repeating: 0, count: 32),
                initiatorNMI: Array(repeating: 0, count: 6),
                responderNMI: Array(repeating: 0, count: 6),
                suite: .ncsSK128
            )
        }
    }

    @Test func truncatedInputsGiveTypedErrors() {
        #expect(throws: KeyDerivationError.invalidLength(field: "KDK", expected: 32, actual: 31)) {
            try NANPairingKeys.ndPMK(
                kdk: Array(repeating: 0, count: 31),
                initiatorNMI: Array(repeating: 0, count: 6),
                responderNMI: Array(repeating: 0, count: 6),
                suite: .ncsPKPASN128
            )
        }
        #expect(throws: KeyDerivationError.invalidLength(field: "NIRA nonce", expected: 8, actual: 7)) {
            try NIRATag.compute(
                nik: Array(repeating: 0, count: 16),
                nmi: Array(repeating: 0, count: 6),
                nonce: Array(repeating: 0, count: 7)
            )
        }
        #expect(throws: KeyDerivationError.invalidLength(field: "NPKID", expected: 16, actual: 15)) {
            try NPKID(bytes: Array(repeating: 0, count: 15))
        }
        #expect(throws: KeyDerivationError.invalidLength(field: "INonce", expected: 32, actual: 31)) {
            try NDPPTK.derive(
                pmk: Array(repeating: 0, count: 32),
                initiatorNDI: Array(repeating: 0, count: 6),
                responderNDI: Array(repeating: 0, count: 6),
                iNonce: Array(repeating: 0, count: 31),
                rNonce: Array(repeating: 0, count: 32),
                suite: .ncsSK128
            )
        }
        #expect(throws: KeyDerivationError.invalidLength(field: "auth token", expected: 16, actual: 8)) {
            try NDPKeyDescriptorMIC.m3MIC(
                ptk: NDPPTK(suite: .ncsSK128, kck: [1], kek: [], tk: []),
                authToken: Array(repeating: 0, count: 8),
                bodyWithMICZeroed: []
            )
        }
    }

    // MARK: NIK key data

    @Test func nikKeyDataPacksLikeReference36() throws {
        // 3.6 layout by hand: NIK KDE, Lifetime KDE (bitmap LE 08 00, lifetime BE 43200 =
        // 0000A8C0), then DD 00.. to 40 octets.
        let nik = hex("000102030405060708090a0b0c0d0e0f")
        let data = try NIKKeyData(nik: nik, lifetime: 43200)
        #expect(
            data.plaintext()
                == hex(
                    "dd15506f9a2400 000102030405060708090a0b0c0d0e0f dd0a506f9a25 0800 0000a8c0 dd00000000"
                )
        )
        #expect(try NIKKeyData.parse(data.plaintext()) == data)
        let withoutLifetime = try NIKKeyData(nik: nik, lifetime: nil)
        #expect(withoutLifetime.plaintext() == hex("dd15506f9a2400 000102030405060708090a0b0c0d0e0f dd"))
        #expect(try NIKKeyData.parse(withoutLifetime.plaintext()) == withoutLifetime)
    }

    @Test func nikKeyDataRefusesMalformedKDEs() {
        #expect(throws: KeyDerivationError.malformedKeyData(reason: "no NIK KDE")) {
            try NIKKeyData.parse(hex("dd0a506f9a25080000015180 dd000000"))
        }
        #expect(throws: KeyDerivationError.malformedKeyData(reason: "NIK KDE cipher version 1, expected 0")) {
            try NIKKeyData.parse(hex("dd15506f9a2401 000102030405060708090a0b0c0d0e0f dd"))
        }
        #expect(throws: KeyDerivationError.malformedKeyData(reason: "element at offset 0 runs past the end")) {
            try NIKKeyData.parse(hex("dd15506f9a2400 0001020304050607"))
        }
        #expect(
            throws: KeyDerivationError.malformedKeyData(reason: "non-zero octet after the DD padding at offset 23")
        ) {
            try NIKKeyData.parse(hex("dd15506f9a2400 000102030405060708090a0b0c0d0e0f dd0001"))
        }
    }

    // MARK: session A

    @Test func sessionANANKeysFromKDK() throws {
        let t = try F.transcript()
        let phone = try F.bytes(t, "parameters.phone.nmi")
        let accessory = try F.bytes(t, "parameters.accessory.nmi")
        let kdk = try F.bytes(t, "pairing.pasn.kdk")
        let suite = try NANSecurityCipherSuite(csid: 7)
        #expect(
            try NANPairingKeys.nmKEK(kdk: kdk, initiatorNMI: phone, responderNMI: accessory, suite: suite)
                == F.bytes(t, "pairing.nan_keys.nm_kek")
        )
        #expect(
            try NANPairingKeys.ndPMK(kdk: kdk, initiatorNMI: phone, responderNMI: accessory, suite: suite)
                == F.bytes(t, "pairing.nan_keys.nd_pmk")
        )
        #expect((try F.bytes(t, "pairing.nan_keys.npk")) == (try F.bytes(t, "pairing.sae.pmk")))
        #expect((try F.bytes(t, "pairing.nan_keys.nm_tk")) == (try F.bytes(t, "pairing.pasn.tk")))

        let verificationKDK = try F.bytes(t, "verification.kdk")
        #expect(
            try NANPairingKeys.ndPMK(kdk: verificationKDK, initiatorNMI: phone, responderNMI: accessory, suite: suite)
                == F.bytes(t, "verification.nd_pmk")
        )
        #expect(
            try NANPairingKeys.nmKEK(kdk: verificationKDK, initiatorNMI: phone, responderNMI: accessory, suite: suite)
                == F.bytes(t, "verification.responder_only_nm_kek")
        )
    }

    @Test func sessionANIKExchangeUnwrapsFromTheFrames() throws {
        let t = try F.transcript()
        let kek = try F.bytes(t, "pairing.nan_keys.nm_kek")
        for (side, frameNumber) in [("phone_nik", 17), ("accessory_nik", 18)] {
            let p = "nik_exchange.\(side)"
            let wrapped = try F.bytes(t, "\(p).key_data_wrapped")
            let frame = try F.frame(frameNumber)
            #expect(Array(frame[193..<(193 + 48)]) == wrapped)
            let data = try NIKKeyData.unwrap(wrapped, kek: kek)
            #expect(data.nik == (try F.bytes(t, "\(p).nik")))
            let lifetime = try #require(try F.value(t, "\(p).nik_lifetime_s") as? Int)
            #expect(data.lifetime == UInt32(lifetime))
            #expect(data.keyBitmap == NIKKeyData.nikBitmapBit)
            #expect(data.plaintext() == (try F.bytes(t, "\(p).key_data_padded")))
            #expect(try data.wrapped(kek: kek) == wrapped)

            var tampered = wrapped
            tampered[0] ^= 0x01
            #expect(throws: KeyDerivationError.integrityCheckFailed) { try NIKKeyData.unwrap(tampered, kek: kek) }
        }
    }

    @Test func sessionANIRATagsOfEveryFrame() throws {
        let t = try F.transcript()
        let frames = try F.sessionFrames()
        guard let locations = try F.value(t, "wire_locations") as? [[String: Any]] else {
            throw F.Missing(description: "wire_locations")
        }
        var checked = 0
        for device in ["accessory", "phone"] {
            let nik = try F.bytes(t, "parameters.\(device).nik")
            let nmi = try F.bytes(t, "parameters.\(device).nmi")
            let nonce = try F.bytes(t, "parameters.\(device).nira.nonce")
            let tag = try F.bytes(t, "parameters.\(device).nira.tag")
            #expect(try NIRATag.compute(nik: nik, nmi: nmi, nonce: nonce) == tag)
            #expect(try NIRATag.compute(nik: nik, nmi: nmi, nonce: nonce) == F.bytes(t, "nira.\(device).tag"))
            let entry = try #require(
                locations.first { $0["value"] as? String == "parameters.\(device).nira.nonce||tag" }
            )
            let occurrences = try #require(entry["occurrences"] as? [[String: Int]])
            for occurrence in occurrences {
                let frame = try #require(occurrence["frame"]).advanced(by: -1)
                let offset = try #require(occurrence["offset"])
                let onAir = Array(frames[frame][offset..<(offset + 16)])
                let npkid = try NPKID(bytes: onAir)
                // The transmitter address (A2) is the sender's NMI.
                #expect(Array(frames[frame][10..<16]) == nmi)
                #expect(npkid.matches(nik: nik, nmi: nmi))
                #expect(!npkid.matches(nik: nik, nmi: Array(frames[frame][4..<10])))
                checked += 1
            }
        }
        #expect(checked == 27)
    }

    @Test func sessionAVerificationNPKIDs() throws {
        let t = try F.transcript()
        for (side, device, frameNumber) in [("phone_npkid", "phone", 35), ("accessory_npkid", "accessory", 36)] {
            let p = "verification.\(side)"
            let npkid = try NPKID(
                nik: F.bytes(t, "\(p).nik"),
                nmi: F.bytes(t, "parameters.\(device).nmi"),
                nonce: F.bytes(t, "\(p).nonce")
            )
            #expect(npkid.tag == (try F.bytes(t, "\(p).tag")))
            #expect(npkid.bytes == (try F.bytes(t, "\(p).npkid")))
            let rsne = try #require(try F.authenticationElements(F.frame(frameNumber)).first { $0.id == 48 }).element
            // RSNE (3.4.1): ID, length, version, group suite, pairwise count + suite, AKM count
            // + suite, RSN capabilities = 22 octets, then PMKID count 1 and the PMKID.
            #expect(Array(rsne[22..<24]) == [1, 0])
            #expect(Array(rsne[24..<40]) == npkid.bytes)
            #expect(try NPKID(bytes: Array(rsne[24..<40])) == npkid)
        }
    }

    @Test func sessionANDPKeysAndMICsFromTheFrames() throws {
        let t = try F.transcript()
        let suite = try NANSecurityCipherSuite(csid: 7)
        let pmk = try F.bytes(t, "ndp.pmk")
        #expect(pmk == (try F.bytes(t, "pairing.nan_keys.nd_pmk")))
        let pmkid = try NDPMK.pmkid(
            pmk: pmk,
            initiatorNMI: F.bytes(t, "parameters.phone.nmi"),
            responderNMI: F.bytes(t, "parameters.accessory.nmi"),
            serviceID: F.bytes(t, "parameters.service_id"),
            suite: suite
        )
        #expect(pmkid == (try F.bytes(t, "ndp.pmkid")))
        let ptk = try NDPPTK.derive(
            pmk: pmk,
            initiatorNDI: F.bytes(t, "parameters.phone.ndi"),
            responderNDI: F.bytes(t, "parameters.accessory.ndi"),
            iNonce: F.bytes(t, "ndp.inonce"),
            rNonce: F.bytes(t, "ndp.rnonce"),
            suite: suite
        )
        #expect(ptk.kck == (try F.bytes(t, "ndp.kck")))
        #expect(ptk.kek == (try F.bytes(t, "ndp.kek")))
        #expect(ptk.tk == (try F.bytes(t, "ndp.tk")))

        let m1Body = Array(try F.frame(22)[24...])
        let authToken = NDPKeyDescriptorMIC.authToken(m1Body: m1Body, suite: suite)
        #expect(authToken == (try F.bytes(t, "ndp.auth_token")))

        for (message, frameNumber) in [("m2", 23), ("m3", 24), ("m4", 25)] {
            var frame = try F.frame(frameNumber)
            // SKDA body: Publish ID, type, key info, key length, replay counter, nonce, IV, RSC,
            // key ID (2.15) = 78 octets before the Key MIC.
            let micStart = try F.nafAttributeBodyOffset(frame, attributeID: 0x24) + 78
            let recorded = try F.bytes(t, "ndp.key_descriptor_mics.\(message).value")
            #expect(Array(frame[micStart..<(micStart + 16)]) == recorded)
            for index in micStart..<(micStart + 16) { frame[index] = 0 }
            let body = Array(frame[24...])
            if message == "m3" {
                #expect(
                    try NDPKeyDescriptorMIC.m3MIC(ptk: ptk, authToken: authToken, bodyWithMICZeroed: body) == recorded
                )
                try NDPKeyDescriptorMIC.verifyM3(recorded, ptk: ptk, authToken: authToken, bodyWithMICZeroed: body)
                #expect(NDPKeyDescriptorMIC.mic(ptk: ptk, bodyWithMICZeroed: body) != recorded)
            } else {
                #expect(NDPKeyDescriptorMIC.mic(ptk: ptk, bodyWithMICZeroed: body) == recorded)
                try NDPKeyDescriptorMIC.verify(recorded, ptk: ptk, bodyWithMICZeroed: body)
                var wrong = recorded
                wrong[0] ^= 0x01
                #expect(throws: KeyDerivationError.verificationFailed(what: "NDP Key MIC")) {
                    try NDPKeyDescriptorMIC.verify(wrong, ptk: ptk, bodyWithMICZeroed: body)
                }
            }
        }
    }
}
