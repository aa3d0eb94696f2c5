import AccessoryKit
import Foundation
import FuzzSupport

// The profile loader (`ProfileLoader.load(bytes:)`: JSON syntax, the schema's rules, the
// semantic rules) on any octets. A rejected profile must render its issues; an accepted one
// must be usable: the accessory it describes is built, started and run for a few discovery
// windows under virtual time, since a profile that validates and then traps the emulator is
// the loader's bug as much as the emulator's.

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    let profile: AccessoryProfile
    do {
        profile = try ProfileLoader.load(bytes: bytes)
    } catch {
        if error.issues.isEmpty { fuzzFailure("a rejected profile has no issues: \(error)") }
        if error.lines(file: "fuzz.json").isEmpty || error.description.isEmpty {
            fuzzFailure("a rejected profile renders empty")
        }
        return 0
    }
    _ = profile.summaryLines
    let air = MemoryAir()
    let accessory = Accessory(profile: profile, air: air, options: AccessoryOptions(seed: 1, pinSource: .seeded))
    do {
        try accessory.start()
    } catch {
        fuzzFailure("an accepted profile's accessory does not start: \(error)")
    }
    air.virtualScheduler.run(for: .seconds(2))
    accessory.stop()
    return 0
}

/// The repository's profiles, good and bad (Profiles, Fixtures/profiles).
func seeds() -> [FuzzSeed] {
    var seeds: [FuzzSeed] = []
    for folder in ["Profiles", "Fixtures/profiles/good", "Fixtures/profiles/bad"] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: RepositoryFile.root + "/" + folder)) ?? []
        for name in names.sorted() where name.hasSuffix(".json") && name != "profile.schema.json" {
            let prefix = folder.replacingOccurrences(of: "/", with: "-")
            seeds.append(FuzzSeed(name: "\(prefix)-\(name)", bytes: RepositoryFile.required("\(folder)/\(name)")))
        }
    }
    return seeds
}

runFuzzer(seeds: seeds, testOneInput)
