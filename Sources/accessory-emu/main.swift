import AccessoryKit
import ArgumentParser

AccessoryEmu.main()
