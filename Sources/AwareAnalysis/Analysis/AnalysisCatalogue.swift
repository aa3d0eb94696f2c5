/// Every rule `aware-conform analyze` checks, in the order reports list them. IDs are stable:
/// a rule that changes meaning gets a new ID.
public enum AnalysisCatalogue {
    public static let rules: [any AnalysisRule] = [
        FrameTruncatedRule(),
        FrameCorruptedRule(),
        FrameMalformedRule(),
        ServiceDescriptorConsistencyRule(),
        ServiceIDHashRule(),
        TXTValueLengthRule(),
        TXTPairingKeysRule(),
        TXTProfileValuesRule(),
        PairingAdvertisementRule(),
        BootstrappingExchangeRule(),
        IdentityResolutionAfterPairingRule(),
        ProtectedAfterPairingRule(),
        ProtectedDualInTheClearRule(),
        ProtectedDataRule(),
        SDFDiscoveryWindowRule(),
        DataBurstRule(),
    ]

    /// The rule with `id`, if there is one.
    public static func rule(_ id: String) -> (any AnalysisRule)? { rules.first { $0.id == id } }
}
