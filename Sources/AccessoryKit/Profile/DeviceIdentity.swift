/// Who the accessory says it is. AccessorySetupKit compares `vendorName` and `modelName` with the
/// app's discovery descriptor and shows `pairingName` in its picker (apple-peer-model.md 2.1).
public struct DeviceIdentity: Codable, Hashable, Sendable {
    public var vendorName: String
    public var modelName: String
    public var pairingName: String?

    public init(vendorName: String, modelName: String, pairingName: String? = nil) {
        self.vendorName = vendorName
        self.modelName = modelName
        self.pairingName = pairingName
    }
}
