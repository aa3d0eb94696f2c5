// The declarations are all in include/CLibFuzzer.h; SwiftPM wants a source file per C target.
#include "CLibFuzzer.h"
