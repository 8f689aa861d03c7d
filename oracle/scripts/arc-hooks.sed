# The hooks SW_NO_HEADER_MEMORY needs inside arc.c (oracle/src/main/c/arc_driver.c, docs/oracle.md). Each is added
# on an existing line, so arc.c's line numbers (in ASSERT messages) stay true; with the switch off each is an
# identity. build-oracle.sh checks that each applied exactly once.
/^arc_space_consume(uint64_t space, arc_space_type_t type)$/{n;s/^{$/{ if (oracle_space_ignored(type)) return;/}
/^arc_space_return(uint64_t space, arc_space_type_t type)$/{n;s/^{$/{ if (oracle_space_ignored(type)) return;/}
s/^\t\t\t\*real_evicted += HDR_FULL_SIZE;$/\t\t\t*real_evicted += oracle_header_bytes(HDR_FULL_SIZE);/
