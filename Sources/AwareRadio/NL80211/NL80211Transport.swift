/// How the radio reaches the kernel: send one request, get the messages that answer it.
/// ``NL80211Socket`` is the real one; tests stand in a scripted kernel, so that the radio's
/// setup sequence and its frame handling run without cfg80211.
protocol NL80211Transport: AnyObject {
    func perform(_ request: NL80211Request) throws(RadioError) -> [GenericNetlinkMessage]
}

extension NL80211Socket: NL80211Transport {}
