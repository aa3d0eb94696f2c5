import AccessoryKit
import AwareCore
import AwareDevice
import AwareWire
import FuzzSupport

#if canImport(Glibc)
import Glibc
#endif

// The accessory's state directory (docs/guides/running-the-accessory.md, "The state directory"):
// one file of it holds the input, the accessory boots on the directory (`AccessoryStateDirectory.boot`,
// which reads the pairing store, the lockout and the identity) and, if it boots, runs two virtual
// seconds with it. The first octet picks the file (modulo 3: pairings.json, identity.json,
// lockout.json); the rest is its contents. Issue 21, finding 3: damaged pairing stores were taken
// for empty ones and a symlink loop was replaced.
//
// Checked on every input: no trap; a boot that fails says why, naming the file, and leaves every
// file as it was (a damaged file is never replaced, and the boot is not counted); a boot that
// succeeds counts exactly one boot and leaves the input's file readable as what it was.

let files = [PairingStore.fileName, "identity.json", LockoutFile.fileName]
/// One directory for every input of the process, emptied between inputs; in /dev/shm when there
/// is one, so that the loop does not wait on a disk.
let directory: String = {
    let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    var template = Array("\(base)/awb-fuzz-state-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        fuzzFailure("cannot create a directory in \(base)")
    }
    return String(cString: made)
}()

func contents(of name: String) -> [UInt8]? {
    RepositoryFile.bytes(atAbsolutePath: directory + "/" + name)
}

func put(_ bytes: [UInt8], in name: String) {
    let descriptor = open(directory + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { fuzzFailure("cannot write \(name)") }
    defer { close(descriptor) }
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == bytes.count else { fuzzFailure("cannot write \(name)") }
}

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    guard let selector = bytes.first else { return 0 }
    let name = files[Int(selector) % files.count]
    let input = Array(bytes.dropFirst())
    for file in files { unlink(directory + "/" + file) }
    put(input, in: name)
    do {
        let state = try AccessoryStateDirectory(path: directory)
        // The boot count the input's identity holds, when it reads.
        let before = name == "identity.json" ? ((try? state.readIdentity()) ?? nil)?.boots : nil
        let record: AccessoryIdentityRecord
        do {
            record = try state.boot(proposedAddress: HarnessProfiles.sessionAccessory, profileFixesAddress: false)
        } catch {
            let message = "\(error)"
            if message.isEmpty || !message.contains(directory + "/") {
                fuzzFailure("a refused boot does not name the file: \(message)")
            }
            if contents(of: name) != input { fuzzFailure("a refused boot changed \(name)") }
            if name != "identity.json", contents(of: "identity.json") != nil {
                fuzzFailure("a refused boot was counted")
            }
            return 0
        }
        if record.boots != (before ?? 0) + 1 { fuzzFailure("boot \(record.boots) after \(before ?? 0)") }
        let air = MemoryAir()
        let firmware = AccessoryFirmware(
            profile: HarnessProfiles.drone,
            air: air,
            options: AccessoryOptions(seed: 1, pinSource: .seeded),
            state: state
        )
        do {
            try firmware.start()
        } catch {
            fuzzFailure("a booted accessory does not start: \(error)")
        }
        air.virtualScheduler.run(for: .seconds(2))
        firmware.stop()
        // What booted still reads: nothing the accessory did made the file unreadable.
        switch name {
        case PairingStore.fileName: _ = try state.checkPairingStore()
        case LockoutFile.fileName: _ = try LockoutFile(directory: state.directory).read()
        default: _ = try state.readIdentity()
        }
    } catch {
        fuzzFailure("the state directory is unusable after a boot it allowed: \(error)")
    }
    return 0
}

/// Each file as the accessory writes it, and damaged the ways issue 21 found (cut short, garbage,
/// another format, empty, out of range), with the selector octet in front.
func seeds() -> [FuzzSeed] {
    var seeds: [FuzzSeed] = []
    func seed(_ name: String, _ file: Int, _ text: String) {
        seeds.append(FuzzSeed(name: name, bytes: [UInt8(file)] + Array(text.utf8)))
    }
    // A real store of one paired phone, written by PairingStore itself.
    for file in files { unlink(directory + "/" + file) }
    if let state = try? StateDirectory(path: directory) {
        let store = PairingStore(directory: state)
        let record = PairingRecord(
            peerNMI: MACAddress(0x02, 0xB0, 0, 0, 0, 1),
            peerNIK: [UInt8](repeating: 0x11, count: 16),
            npk: [UInt8](repeating: 0x22, count: 32),
            akm: .sae,
            cipherSuite: 7,
            pairedAt: 1_767_225_600
        )
        _ = try? store.ownNIK { [UInt8](repeating: 0x33, count: 16) }
        try? store.upsert(record, cap: nil)
    }
    let store = String(decoding: contents(of: PairingStore.fileName) ?? [], as: UTF8.self)
    seed("pairings-valid", 0, store)
    seed("pairings-cut", 0, String(store.prefix(store.count / 2)))
    seed("pairings-garbage", 0, "\u{7}\u{0}not json at all")
    seed("pairings-other-format", 0, #"{"format":"someone-else/2","peers":[]}"#)
    seed("pairings-empty", 0, "")
    seed("pairings-array", 0, "[]")
    seed("identity-valid", 1, #"{"boots":3,"format":"awarebench-accessory-identity/1","nmi":"02:a0:00:00:00:01"}"#)
    seed(
        "identity-boots-max",
        1,
        #"{"boots":9223372036854775807,"format":"awarebench-accessory-identity/1","nmi":"02:a0:00:00:00:01"}"#
    )
    seed("identity-zero-nmi", 1, #"{"boots":1,"format":"awarebench-accessory-identity/1","nmi":"00:00:00:00:00:00"}"#)
    seed("identity-cut", 1, #"{"boots":3,"format":"awarebench-accessory-id"#)
    seed(
        "lockout-valid",
        2,
        #"{"format":"awarebench-pairing-lockout/1","overall":{"locked":false,"wrongPINs":2},"peers":[{"limiter":{"lastLockoutSeconds":60,"locked":true,"wrongPINs":3},"peer":"02:b0:00:00:00:01"}]}"#
    )
    seed(
        "lockout-negative",
        2,
        #"{"format":"awarebench-pairing-lockout/1","overall":{"locked":false,"wrongPINs":-4},"peers":[]}"#
    )
    seed(
        "lockout-huge",
        2,
        #"{"format":"awarebench-pairing-lockout/1","overall":{"locked":true,"lastLockoutSeconds":9223372036854775807,"wrongPINs":9223372036854775807},"peers":[]}"#
    )
    seed(
        "lockout-bad-peer",
        2,
        #"{"format":"awarebench-pairing-lockout/1","overall":{"locked":false,"wrongPINs":1},"peers":[{"limiter":{"locked":false,"wrongPINs":1},"peer":"ff:ff:ff:ff:ff:ff"}]}"#
    )
    for file in files { unlink(directory + "/" + file) }
    unlink(directory + "/lock")
    return seeds
}

runFuzzer(seeds: seeds, testOneInput)
