import AccessoryKit
import ConformanceKit
import Testing

/// ConformanceKit names the accessory's faults by string (it never imports AccessoryKit): every name a
/// test's contract uses must be an `AccessoryFault`, and every `AccessoryFault` must break some test, or
/// `selftest` could not prove that the catalogue catches it.
@Suite struct FaultContractNameTests {
    @Test func everyFaultATestDeclaresIsAnAccessoryFault() {
        let unknown = ConformanceSuites.faults.filter { AccessoryFault(rawValue: $0) == nil }
        #expect(unknown.isEmpty, "declared, but accessory-emu has no such fault: \(unknown)")
    }

    @Test func everyAccessoryFaultIsDeclaredBySomeTest() {
        let declared = Set(ConformanceSuites.faults)
        let undeclared = AccessoryFault.allCases.map(\.rawValue).filter { !declared.contains($0) }
        #expect(undeclared.isEmpty, "no test declares it breaks: \(undeclared)")
    }
}
