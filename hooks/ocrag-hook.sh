#!/bin/sh
# Called from the hook blocks earlier versions of `ocrag hooks install` wrote (by this file's absolute path;
# today's blocks find ocrag by name and start `ocrag hook`), kept so those keep working until installed again. It hands the work to a detached
# `ocrag hook` process and returns at once: it never fails and never slows a git command.
# What the background run did is logged in .ocrag/log.
hook=$1
[ $# -gt 0 ] && shift
case "$hook" in
  post-checkout) [ "$3" = 1 ] || exit 0 ;;            # a file checkout switches no branch
  post-rewrite) while read -r _; do :; done ;;        # git passes the rewritten commits on stdin
  post-commit|post-merge) ;;
  *) exit 0 ;;
esac
[ -n "$OCRAG_HOOKS_DISABLE" ] && exit 0
# Git runs hooks at the top of the work tree, whose files any branch may supply: only absolute PATH entries outside
# it are kept, so no node (nor anything else) is taken from the tree.
top=$(pwd -P) safe=; IFS=:; set -f; for d in $PATH; do case $d in /*) case "$d/" in "$top"/*|"$PWD"/*) ;; *) safe=$safe${safe:+:}$d;; esac;; esac; done; unset IFS; set +f; PATH=$safe; export PATH
here=$(cd "$(dirname "$0")" 2>/dev/null && pwd) || exit 0
run="$here/../dist/hooks/run.js"
node=${OCRAG_NODE:-node}
[ -f "$run" ] || exit 0
command -v "$node" >/dev/null 2>&1 || exit 0
# Git exports these for the hook; the background run finds the repository from its folder instead.
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_PREFIX GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES
( trap '' HUP; "$node" "$run" "$hook" "$@" </dev/null >/dev/null 2>&1 & ) >/dev/null 2>&1
exit 0
