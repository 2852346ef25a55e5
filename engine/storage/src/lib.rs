//! basalt-storage: the persistent store under basalt-server (being written).
