fn main() {
    for s in std::env::args().skip(1) {
        for p in urilex::Profile::ALL {
            match urilex::Parser::new().profile(*p).parse(&s) {
                Ok(r) => println!("{:14} {s:?} -> {r:?}", p.name()),
                Err(e) => println!("{:14} {s:?} -> ERR {e}", p.name()),
            }
        }
    }
}
