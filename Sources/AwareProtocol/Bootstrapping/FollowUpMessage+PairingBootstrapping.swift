import AwareWire

extension FollowUpMessage {
    /// The first NPBA of this type (and dialog token, when given) in the follow-up.
    func pairingBootstrapping(
        type: PairingBootstrappingType,
        dialogToken: UInt8? = nil
    ) -> PairingBootstrappingAttribute? {
        for case .pairingBootstrapping(let npba) in attributes
        where npba.type == type && (dialogToken == nil || npba.dialogToken == dialogToken) {
            return npba
        }
        return nil
    }
}
