// AwareProtocol: the sans-I/O protocol machines (discovery, bootstrapping, PASN pairing,
// identity resolution, NDP). They take time and randomness from outside and return
// actions; they never read a clock, draw randomness, sleep or open a socket.
