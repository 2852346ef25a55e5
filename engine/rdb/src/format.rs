//! The numbers of the RDB format (Redis' `rdb.h`): opcodes, value types, length encodings.

/// The version this writer produces (Redis 7.0).
pub const WRITE_VERSION: u32 = 10;
/// The newest version the reader takes (Redis 7.2 writes 11, with types this reader knows).
pub const MAX_READ_VERSION: u32 = 11;
/// RDB versions before this one carry no CRC64 after the EOF opcode.
pub const FIRST_CHECKSUM_VERSION: u32 = 5;

// Opcodes.
pub const OP_FUNCTION2: u8 = 245;
pub const OP_FUNCTION_PRE_GA: u8 = 246;
pub const OP_MODULE_AUX: u8 = 247;
pub const OP_IDLE: u8 = 248;
pub const OP_FREQ: u8 = 249;
pub const OP_AUX: u8 = 250;
pub const OP_RESIZEDB: u8 = 251;
pub const OP_EXPIRETIME_MS: u8 = 252;
pub const OP_EXPIRETIME: u8 = 253;
pub const OP_SELECTDB: u8 = 254;
pub const OP_EOF: u8 = 255;

// Value types.
pub const TYPE_STRING: u8 = 0;
pub const TYPE_LIST: u8 = 1;
pub const TYPE_SET: u8 = 2;
pub const TYPE_ZSET: u8 = 3;
pub const TYPE_HASH: u8 = 4;
pub const TYPE_ZSET_2: u8 = 5;
pub const TYPE_MODULE_PRE_GA: u8 = 6;
pub const TYPE_MODULE_2: u8 = 7;
pub const TYPE_HASH_ZIPMAP: u8 = 9;
pub const TYPE_LIST_ZIPLIST: u8 = 10;
pub const TYPE_SET_INTSET: u8 = 11;
pub const TYPE_ZSET_ZIPLIST: u8 = 12;
pub const TYPE_HASH_ZIPLIST: u8 = 13;
pub const TYPE_LIST_QUICKLIST: u8 = 14;
pub const TYPE_STREAM_LISTPACKS: u8 = 15;
pub const TYPE_HASH_LISTPACK: u8 = 16;
pub const TYPE_ZSET_LISTPACK: u8 = 17;
pub const TYPE_LIST_QUICKLIST_2: u8 = 18;
pub const TYPE_STREAM_LISTPACKS_2: u8 = 19;
pub const TYPE_SET_LISTPACK: u8 = 20;
pub const TYPE_STREAM_LISTPACKS_3: u8 = 21;

// Quicklist 2 node containers.
pub const QUICKLIST_NODE_PLAIN: u64 = 1;
pub const QUICKLIST_NODE_PACKED: u64 = 2;

// Length encodings (the two top bits of the first byte).
pub const LEN_6BIT: u8 = 0;
pub const LEN_14BIT: u8 = 1;
pub const LEN_32BIT: u8 = 0x80;
pub const LEN_64BIT: u8 = 0x81;
pub const LEN_ENCVAL: u8 = 3;

// Special string encodings (after LEN_ENCVAL).
pub const ENC_INT8: u8 = 0;
pub const ENC_INT16: u8 = 1;
pub const ENC_INT32: u8 = 2;
pub const ENC_LZF: u8 = 3;

// Stream listpack entry flags.
pub const STREAM_ITEM_DELETED: i64 = 1;
pub const STREAM_ITEM_SAMEFIELDS: i64 = 2;
