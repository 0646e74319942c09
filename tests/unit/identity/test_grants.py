"""A principal holds the strongest of its own grants and its teams' at each place."""

from axonal_identity.domain.grants import strongest


def test_the_strongest_grant_wins_at_each_place():
    grants = [("acme", "viewer"), ("acme", "admin"), ("beta", "member"), ("acme", "member")]
    assert strongest(grants) == {"acme": "admin", "beta": "member"}


def test_an_explicit_none_is_kept_when_nothing_stronger_is_granted():
    assert strongest([("acme/secret", "none")]) == {"acme/secret": "none"}
    assert strongest([("acme/secret", "none"), ("acme/secret", "viewer")]) == {
        "acme/secret": "viewer"
    }
