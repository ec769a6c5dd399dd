//! `cargo run --example lints -- REF...`: prints each reference's lints.
fn main() {
    for arg in std::env::args().skip(1) {
        match urilex::UriRef::parse(&arg) {
            Ok(u) => {
                for l in u.lints() {
                    println!("{arg}: {l} {:?}", &arg[l.span.clone()]);
                }
            }
            Err(e) => println!("{arg}: invalid: {e}"),
        }
    }
}
