//! Bug: `Urn::parse_with`'s error path found the NID again by hand
//! (`input.find(':')`, then `split(':')`), apart from the grammar that had
//! just parsed the input. Found in review. Fixed: the NID's start is where
//! the profile's `scheme` part ends (its automaton, before a ":"), and its
//! text the run of bytes the `nid` part's automaton takes. A byte outside
//! that alphabet is named as such, no longer shown as part of the NID.

use urilex::urn::Urn;
use urilex::Profile;

#[test]
fn nid_faults_are_told_from_the_grammar() {
    for profile in [Profile::Rfc8141, Profile::UrnDraft03] {
        let cases = [
            (
                "urn:-ab:x",
                "NID must be 2 to 32 letters, digits or hyphens, not starting or ending with a hyphen: '-ab' at byte 4 (rule NID)",
            ),
            (
                "urn:ab-:x",
                "NID must be 2 to 32 letters, digits or hyphens, not starting or ending with a hyphen: 'ab-' at byte 7 (rule NID)",
            ),
            (
                "urn:ab_c:x",
                "an NID holds letters, digits and hyphens only: '_' (0x5F) after 'ab' at byte 6 (rule NID)",
            ),
            (
                "URN:a:x",
                "NID must be 2 to 32 letters, digits or hyphens, not starting or ending with a hyphen: 'a' at byte 5 (rule NID)",
            ),
        ];
        for (input, want) in cases {
            let e = Urn::parse_with(profile, input).unwrap_err();
            assert_eq!(e.to_string(), want, "{input} under {}", profile.name());
            assert_eq!(e.error.part(), Some("nid"), "{input}");
        }
        // 33 characters: past the 32nd the grammar is between the NID and
        // its ":", and the fault is still the NID's, shown whole.
        let long = format!("urn:{}:x", "a".repeat(33));
        let e = Urn::parse_with(profile, &long).unwrap_err();
        assert!(
            e.to_string()
                .contains(&format!("'{}' at byte 36", "a".repeat(33))),
            "{e}"
        );
        // Not a URN scheme: no NID to speak of, the grammar's own error.
        let e = Urn::parse_with(profile, "urx:ab:x").unwrap_err();
        assert_eq!(e.error.part(), Some("scheme"), "{e}");
        assert!(!e.to_string().contains("NID"), "{e}");
    }
}
