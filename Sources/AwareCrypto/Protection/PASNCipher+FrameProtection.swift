extension PASNCipher {
    /// MIC length appended to a protected MPDU: 8 octets for CCMP-128 (M = 8,
    /// 12.5.3.3.1), 16 for GCMP-256 (12.5.5.3.1).
    public var frameMICLength: Int {
        aeadMode.tagLength
    }

    var aeadMode: FrameAEAD.Mode {
        switch self {
        case .ccmp128: return .ccm
        case .gcmp256: return .gcm
        }
    }
}
