#!/usr/bin/env sh
# Installs, when missing, the Debian packages of the real servers the test suite starts (it starts and stops them
# itself, on loopback, in private directories) and the tools it checks with (systemd-analyze verifies the unit).
# Needs root or sudo; does nothing when everything is there.
set -eu
need=""
have() { command -v "$1" >/dev/null 2>&1 || [ -x "$2" ]; }
have pg_ctl "$(ls -d /usr/lib/postgresql/*/bin/pg_ctl 2>/dev/null | tail -n 1)" || need="$need postgresql"
have redis-server /usr/bin/redis-server || need="$need redis-server"
have rabbitmq-server /usr/sbin/rabbitmq-server || need="$need rabbitmq-server"
have slapd /usr/sbin/slapd || need="$need slapd ldap-utils"
have chromium /usr/bin/chromium || need="$need chromium"
have wrk /usr/bin/wrk || need="$need wrk"
have openssl /usr/bin/openssl || need="$need openssl"
have systemd-analyze /usr/bin/systemd-analyze || need="$need systemd"
# The partition fault test puts a server in a network namespace of its own.
have ip /usr/sbin/ip || need="$need iproute2"
# Sensu's own Ansible collection (sensu.sensu_go, inside Debian's ansible package) plays against both backends; its
# user module hashes passwords with python3's bcrypt.
have ansible-playbook /usr/bin/ansible-playbook && [ -d /usr/lib/python3/dist-packages/ansible_collections/sensu/sensu_go ] || need="$need ansible"
/usr/bin/python3 -c 'import bcrypt' >/dev/null 2>&1 || need="$need python3-bcrypt"
[ -z "$need" ] && exit 0
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
echo "installing:$need" >&2
# The servers' own init scripts must not start system-wide copies: the suite runs private ones.
policy=/usr/sbin/policy-rc.d
created=""
if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null && $sudo chmod +x "$policy" && created=1; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $need >/dev/null
[ -n "$created" ] && $sudo rm -f "$policy"
exit 0
