"""The SSRF guard: metadata, link-local and unspecified always refused; private and loopback
only when allowed; deny lists on top."""

import ipaddress

import pytest

from axonal_notifications.domain.targets import TargetPolicy, TargetRefused, check_target, classify


class StaticResolver:
    def __init__(self, table):
        self.table = table

    async def resolve(self, host):
        if host not in self.table:
            raise OSError("Name or service not known")
        return [ipaddress.ip_address(a) for a in self.table[host]]


RESOLVER = StaticResolver(
    {
        "hooks.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
        "inside.example.com": ["10.1.2.3"],
        "rebound.example.com": ["93.184.215.14", "169.254.169.254"],
        "localhost": ["127.0.0.1", "::1"],
        "empty.example.com": [],
    }
)
DEFAULT = TargetPolicy()


@pytest.mark.parametrize(
    ("address", "always", "why"),
    [
        ("93.184.215.14", False, None),
        ("2606:2800:21f:cb07:6820:80da:af6b:8b2c", False, None),
        ("169.254.169.254", True, "cloud metadata"),
        ("fd00:ec2::254", True, "cloud metadata"),
        ("169.254.10.1", True, "link-local"),
        ("fe80::1", True, "link-local"),
        ("0.0.0.0", True, "unspecified"),
        ("::", True, "unspecified"),
        ("::ffff:169.254.169.254", True, "cloud metadata"),
        ("224.0.0.1", True, "multicast"),
        ("127.0.0.1", False, "loopback"),
        ("::1", False, "loopback"),
        ("10.0.0.1", False, "private"),
        ("192.168.1.1", False, "private"),
        ("fc00::1", False, "private"),
        ("::ffff:10.0.0.1", False, "private"),
    ],
)
def test_classify(address, always, why):
    refused, reason = classify(ipaddress.ip_address(address))
    assert refused is always
    assert (reason is None) if why is None else (why in reason)


async def test_public_hosts_pass():
    await check_target("https://hooks.example.com/x", RESOLVER, DEFAULT)
    await check_target("http://93.184.215.14:8080/x", RESOLVER, DEFAULT)


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://169.254.169.254/latest/meta-data", "cloud metadata"),
        ("http://[fd00:ec2::254]/", "cloud metadata"),
        ("http://metadata.google.internal/computeMetadata/v1/", "metadata service"),
        ("http://127.0.0.1:8000/hook", "loopback"),
        ("http://localhost/hook", "loopback"),
        ("http://[::1]/hook", "loopback"),
        ("http://inside.example.com/hook", "private"),
        ("http://rebound.example.com/", "cloud metadata"),  # one bad address is enough
        ("http://0.0.0.0:80/", "unspecified"),
        ("http://nowhere.example.com/", "does not resolve"),
        ("http://empty.example.com/", "no address"),
        ("file:///etc/passwd", "not an http"),
    ],
)
async def test_refused_by_default(url, why):
    with pytest.raises(TargetRefused, match=why):
        await check_target(url, RESOLVER, DEFAULT)


async def test_allow_lists_open_loopback_and_private_but_never_metadata():
    policy = TargetPolicy.parse(allow_networks=["127.0.0.0/8", "::1/128", "10.0.0.0/8"])
    await check_target("http://127.0.0.1:9/hook", RESOLVER, policy)
    await check_target("http://localhost:9/hook", RESOLVER, policy)
    await check_target("http://inside.example.com/hook", RESOLVER, policy)
    by_host = TargetPolicy.parse(allow_hosts=["Inside.Example.com"])
    await check_target("http://inside.example.com/hook", RESOLVER, by_host)
    everything = TargetPolicy.parse(allow_networks=["0.0.0.0/0", "::/0"])
    with pytest.raises(TargetRefused, match="link-local"):
        await check_target("http://169.254.1.1/", RESOLVER, everything)
    with pytest.raises(TargetRefused, match="cloud metadata"):
        await check_target("http://169.254.169.254/", RESOLVER, everything)


async def test_deny_lists_refuse_public_targets():
    policy = TargetPolicy.parse(deny_hosts=["hooks.example.com"], deny_networks=["93.184.0.0/16"])
    with pytest.raises(TargetRefused, match="denied by configuration"):
        await check_target("https://hooks.example.com/", RESOLVER, policy)
    with pytest.raises(TargetRefused, match="denied network"):
        await check_target("https://93.184.215.14/", RESOLVER, policy)
