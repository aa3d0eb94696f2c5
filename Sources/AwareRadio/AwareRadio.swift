// AwareRadio: where frames travel and time passes (simulated air, socket air, nl80211
// radio, capture taps). It carries frames; it never decides protocol behaviour.
