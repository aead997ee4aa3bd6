import { describe, expect, it } from "vitest";
import { classifySite, commercialWords } from "~/services/site-classification";

describe("classifying a new site from its URL and home page", () => {
  it("calls a business top-level domain commercial whatever the page says", () => {
    expect(classifySite("https://tidewater.shop", "")).toBe("commercial");
    expect(classifySite("https://acme.biz/about", "<h1>About</h1>")).toBe("commercial");
  });

  it("needs two shop words on the page, or a shop-like host and one word", () => {
    expect(classifySite("https://bakery.example", "<a href=/shop>Shop</a>")).toBe("personal");
    expect(classifySite("https://bakery.example", "<a href=/shop>Shop</a> <a href=/cart>Cart</a>")).toBe("commercial");
    expect(classifySite("https://breadstore.example", "<a href=/checkout>Pay</a>")).toBe("commercial");
    // Whole words only: a workshop about cartography sells nothing.
    expect(commercialWords("Our workshop on cartography and shopping-free living")).toEqual([]);
  });

  it("tells educational and non-profit domains apart, else personal", () => {
    expect(classifySite("https://maths.ac.uk", "")).toBe("educational");
    expect(classifySite("https://college.edu", "")).toBe("educational");
    expect(classifySite("https://rescue.org", "")).toBe("non-profit");
    expect(classifySite("https://friends.org.uk", "")).toBe("non-profit");
    expect(classifySite("https://jane.example", "<p>My garden</p>")).toBe("personal");
    expect(classifySite("not a url", "")).toBe("personal");
  });
});
