import AwareCrypto

/// What the accessory accepts (nan-wire-reference.md 4.1, 4.2).
public struct NDPResponderPolicy: Hashable, Sendable {
    /// Refuse a request without Security Present (reason SECURITY_POLICY).
    public var requiresSecurity: Bool
    /// The cipher suites a request may name; others are refused with SECURITY_POLICY.
    public var allowedSuites: [NANSecurityCipherSuite]
    /// The performance mode the accessory expects of its peers; a request whose NDL QoS
    /// implies another is refused with QoS_UNACCEPTABLE. nil accepts any.
    public var expectedMode: PerformanceMode?
    /// A fault switch: accept a mode mismatch instead of refusing it.
    public var toleratesModeMismatch: Bool
    /// Answer a proposal that does not fit with our own schedule (4.1); off (a fault switch)
    /// rejects it with INVALID_AVAILABILITY instead.
    public var counterProposes: Bool
    /// Refuse a request whose ND-PMKID matches no key we hold for the peer (4.2); off (a fault
    /// switch) goes on with whatever key we hold and lets the MICs fail later.
    public var checksPMKID: Bool
    /// Name a Selected NDC in an accepting response (2.8); off (a fault switch) sends none, which
    /// hostap drops ("Missing valid selected NDC").
    public var selectsNDC: Bool
    /// Answer in the attribute the requester reads: NDPE when its Device Capability sets the NDPE
    /// bit, NDP otherwise (2.6, 2.10); off (a fault switch) answers NDPE whatever it reads.
    public var followsPeerNDPESupport: Bool
    /// Keep the NDC a request proposes (its ID, and its schedule when it fits, 2.8); off (a
    /// fault switch) selects one of our own whatever was proposed.
    public var honoursProposedNDC: Bool
    /// Read the proposal from every NAN Availability attribute of the request, one per Map ID
    /// (2.7); off (a fault switch) reads only the first.
    public var readsEveryMap: Bool
    /// Keep a proposal's own period when it repeats over more than 512 TU (2.7); off (a fault
    /// switch) folds it onto 512 TU, committing slots the peer only holds in some periods (the
    /// short-period assumption ESP-IDF had to drop for iPhones, esp-idf #16743).
    public var keepsLongPeriods: Bool
    /// Schedule in the proposal's conditional entries as well as its committed ones (2.7;
    /// hostap covers a schedule by both); off (a fault switch) reads committed entries only.
    public var schedulesInConditional: Bool

    public init(
        requiresSecurity: Bool = true,
        allowedSuites: [NANSecurityCipherSuite] = NANSecurityCipherSuite.allCases,
        expectedMode: PerformanceMode? = nil,
        toleratesModeMismatch: Bool = false,
        counterProposes: Bool = true,
        checksPMKID: Bool = true,
        selectsNDC: Bool = true,
        followsPeerNDPESupport: Bool = true,
        honoursProposedNDC: Bool = true,
        readsEveryMap: Bool = true,
        keepsLongPeriods: Bool = true,
        schedulesInConditional: Bool = true
    ) {
        self.readsEveryMap = readsEveryMap
        self.keepsLongPeriods = keepsLongPeriods
        self.schedulesInConditional = schedulesInConditional
        self.honoursProposedNDC = honoursProposedNDC
        self.selectsNDC = selectsNDC
        self.followsPeerNDPESupport = followsPeerNDPESupport
        self.checksPMKID = checksPMKID
        self.counterProposes = counterProposes
        self.requiresSecurity = requiresSecurity
        self.allowedSuites = allowedSuites
        self.expectedMode = expectedMode
        self.toleratesModeMismatch = toleratesModeMismatch
    }
}
