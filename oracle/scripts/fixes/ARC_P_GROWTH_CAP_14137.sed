# The fix of zfs #14120 (PR #14137, 2.1.7 commit d9de079a4b, "Fix arc_p aggressive increase"), as the spec's
# QuirkFix.ARC_P_GROWTH_CAP_14137 applies it: arc_p grows with anonymous data, in arc_adapt and in
# arc_get_data_impl, only while arc_p < arc_c / 2. Each change stays on its line (arc.c's line numbers hold);
# build-oracle.sh checks that the script changed exactly the number of lines its "changes:" line states.
# changes: 2
/^\t\telse if (state == arc_anon)$/s/)$/ \&\& arc_p < arc_c >> 1)/
/^\t\t    zfs_refcount_count(&arc_mru->arcs_size) > arc_p))$/s/ > arc_p))$/ > arc_p) \&\& arc_p < arc_c >> 1)/
