#!/bin/sh
# A C compiler that records each call in $CC_LOG, then runs cc (the kernel cache tests:
# a run served from the cache starts no compiler).
echo cc >> "$CC_LOG"
exec cc "$@"
