import Foundation
import Testing

@testable import AccessoryKit

@Suite struct ProfileFixtureTests {
    @Test func thereAreEnoughFixturesAndEachBadOneHasAnExpectation() {
        #expect(ProfileFixtures.good.count >= 10)
        #expect(ProfileFixtures.bad.count >= 20)
        let names = Set(ProfileFixtures.bad.map(\.lastPathComponent))
        #expect(names == Set(ProfileFixtures.expectations.keys))
        for name in ["drone.json", "camera.json", "speaker.json"] {
            #expect(ProfileFixtures.good.contains { $0.lastPathComponent == name })
        }
    }

    @Test(arguments: ProfileFixtures.good)
    func goodProfileLoads(_ url: URL) {
        do {
            _ = try ProfileLoader.load(path: url.path)
        } catch {
            Issue.record("\(url.lastPathComponent) should load but: \(error)")
        }
    }

    @Test(arguments: ProfileFixtures.bad)
    func badProfileFailsAtTheExpectedPath(_ url: URL) throws {
        let name = url.lastPathComponent
        let expectation = try #require(ProfileFixtures.expectations[name], "no expectation for \(name)")
        do {
            _ = try ProfileLoader.load(path: url.path)
            Issue.record("\(name) should be rejected at \(expectation.path)")
        } catch {
            let matching = error.issues.filter { $0.path == expectation.path }
            #expect(!matching.isEmpty, "\(name): no issue at \(expectation.path); got \(error.issues)")
            if let fragment = expectation.message {
                #expect(
                    matching.contains { $0.description.contains(fragment) },
                    "\(name): no issue at \(expectation.path) mentions \(fragment); got \(matching)"
                )
            }
        }
    }
}
