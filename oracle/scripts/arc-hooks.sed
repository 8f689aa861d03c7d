# The hooks SW_NO_HEADER_MEMORY and SW_NO_CHUNK_WASTE need inside arc.c (oracle/src/main/c/arc_driver.c,
# docs/oracle.md). Each is added on an existing line, so arc.c's line numbers (in ASSERT messages) stay true; with the
# switches off each is an identity. For every release, build-oracle.sh counts each hook's marker in the hooked copy
# and stops, naming the hook and the release, when a count differs from the one stated here for the release's
# series (#hook SERIES COUNT MARKER; 2.2's arc_evict_hdr adds HDR_FULL_SIZE twice: a ghost destroyed, and an
# uncached header destroyed):
#hook 2.1 2 if (oracle_space_ignored(type)) return;
#hook 2.1 1 oracle_header_bytes(HDR_FULL_SIZE)
#hook 2.2 2 if (oracle_space_ignored(type)) return;
#hook 2.2 2 oracle_header_bytes(HDR_FULL_SIZE)
/^arc_space_consume(uint64_t space, arc_space_type_t type)$/{n;s/^{$/{ if (oracle_space_ignored(type)) return;/}
/^arc_space_return(uint64_t space, arc_space_type_t type)$/{n;s/^{$/{ if (oracle_space_ignored(type)) return;/}
s/^\(\t\t\t*\)\*real_evicted += HDR_FULL_SIZE;$/\1*real_evicted += oracle_header_bytes(HDR_FULL_SIZE);/
