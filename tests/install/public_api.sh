#!/bin/sh
# public_api.sh HEADER - the functions HEADER declares, one a line, sorted:
# lines at column 0 that declare a gs_ function (GS_API or not), static
# inline ones excluded. What the shared libraries must export
# (exported_symbols.sh) and the API reference must list (api_docs.sh).
exec sed -n -E '/^static/d; s/^(GS_API +)?[A-Za-z_][A-Za-z0-9_ ]*[ *]+(gs_[A-Za-z0-9_]*)\(.*/\2/p' \
    "$1" | sort -u
