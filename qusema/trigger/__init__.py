"""Stage III: from a verified defect to the documented public API a user reaches it through,
and its qualification: bug, potential bug, or not a bug."""
