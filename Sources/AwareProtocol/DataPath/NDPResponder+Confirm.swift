import AwareCrypto
import AwareWire

extension NDPResponder {
    /// The Data Path Confirm (4.1, 4.2): Rejected ends the exchange; m3 has Key Info 0x03C8,
    /// INonce and a larger replay counter than m1, and its MIC covers the auth token (the
    /// first 16 octets of the hash of the m1 body) and the body. A secure exchange ends with
    /// the Key Installment (status Accepted, which hostap requires) carrying m4.
    mutating func confirm(_ message: NDPMessage, accepted: Accepted) -> [NDPAction] {
        let common = message.common
        guard common.type == .confirm, common.dialogToken == request.dialogToken else { return [] }
        if common.status == .rejected || message.ndl?.status == .rejected {
            state = .finished
            let reason = common.status == .rejected ? common.reasonCode : message.ndl?.reasonCode ?? .ndlUnacceptable
            let kind: NDPFailure.Kind = accepted.counterProposal ? .scheduleUnacceptable : .rejectedByPeer(reason)
            return [.cancel(.awaitingConfirm), .failed(NDPFailure(kind, reason: reason))]
        }
        guard let keys = accepted.keys else {
            state = .established(accepted.link, answered: nil)
            return [.cancel(.awaitingConfirm), .established(accepted.link)]
        }
        guard message.securityPresent, let m3 = message.keyDescriptor(suite: keys.suite), NDPKeyMessage.m3.matches(m3),
            m3.nonce == keys.iNonce, m3.replayCounter > keys.replayCounter,
            let zeroed = message.bodyWithMICZeroed(suite: keys.suite)
        else {
            state = .finished
            let failure = NDPFailure(.malformed("message 3 is missing or not a message 3"))
            return [.cancel(.awaitingConfirm), .failed(failure)]
        }
        let authToken = NDPKeyDescriptorMIC.authToken(m1Body: request.body, suite: keys.suite)
        do throws(KeyDerivationError) {
            try NDPKeyDescriptorMIC.verifyM3(m3.mic, ptk: keys.ptk, authToken: authToken, bodyWithMICZeroed: zeroed)
        } catch {
            state = .finished
            return [.cancel(.awaitingConfirm), .failed(NDPFailure(.micMismatch(message: 3)))]
        }
        guard let install = keyInstallFrame(keys: keys, replayCounter: m3.replayCounter, accepted: accepted) else {
            state = .finished
            return [.cancel(.awaitingConfirm), .failed(NDPFailure(.internalError("the m4 MIC could not be computed")))]
        }
        let installMPDU = mpdu(install)
        state = .established(accepted.link, answered: (message.body, installMPDU))
        return [.cancel(.awaitingConfirm), .transmit(installMPDU), .established(accepted.link)]
    }
}
