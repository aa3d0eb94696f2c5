/// Whether a test checks the accessory's behaviour on valid input or its handling of invalid input
/// (the Bluetooth qualification convention: Bluetooth SIG, "Test Documentation").
public enum TestKind: String, Hashable, Sendable, CaseIterable {
    case validBehaviour = "BV"
    case invalidBehaviour = "BI"
}
